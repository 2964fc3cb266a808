/*
 * registry-sqlite.c: the registry in a directory, claims in SQLite.
 *
 * DB/claims.sqlite holds the claims (WAL: readers never wait for a
 * writer; writers take the lock up front with BEGIN IMMEDIATE, so a
 * claim's read-then-write cannot interleave with another's).
 * DB/contents/LABEL.idx holds each archive's Contents index.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include <dpkg/dpkg.h>

#include "conflicts/contents-index.h"
#include "conflicts/registry.h"

#define BUSY_TIMEOUT_MS 30000
#define CHECKPOINT_WAIT_MS 1000

struct sqlite_registry {
	struct registry base;
	char *dir;
	char *contents_dir;
	sqlite3 *db;
	bool archives_loaded;
	struct contents_index **archives;
	size_t narchives;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS apps ("
	" app TEXT PRIMARY KEY, owner TEXT NOT NULL, claimed TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS packages ("
	" package TEXT PRIMARY KEY, app TEXT NOT NULL REFERENCES apps(app));"
	"CREATE INDEX IF NOT EXISTS packages_app ON packages (app);"
	"CREATE TABLE IF NOT EXISTS paths ("
	" path TEXT PRIMARY KEY, app TEXT NOT NULL REFERENCES apps(app),"
	" package TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS paths_app ON paths (app);"
	"CREATE TABLE IF NOT EXISTS uploaders ("
	" fingerprint TEXT PRIMARY KEY, name TEXT NOT NULL,"
	" added TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS accepted ("
	" app TEXT PRIMARY KEY REFERENCES apps(app), version TEXT NOT NULL,"
	" uploader TEXT NOT NULL, fingerprint TEXT NOT NULL,"
	" accepted TEXT NOT NULL);"
	/* The store's pipeline: one row per upload (registry.h). */
	"CREATE TABLE IF NOT EXISTS jobs ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT, dir TEXT NOT NULL,"
	" upload TEXT NOT NULL, state TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0, worker TEXT,"
	" lease_expires INTEGER, queued TEXT NOT NULL);"
	/* The reserved privileges the operator grants an app id, claimed
	 * or not yet (no reference to apps), for one uploader's uploads. */
	"CREATE TABLE IF NOT EXISTS grants ("
	" app TEXT NOT NULL, privilege TEXT NOT NULL, granted TEXT NOT NULL,"
	" owner TEXT NOT NULL DEFAULT '', PRIMARY KEY (app, privilege));";

/*
 * A registry made before grants had an owner: each is its app's owner's
 * then, an unclaimed app's for nobody ("") until granted again.
 */
static const char grants_owner[] =
	"ALTER TABLE grants ADD COLUMN owner TEXT NOT NULL DEFAULT '';"
	"UPDATE grants SET owner = COALESCE((SELECT owner FROM apps"
	" WHERE apps.app = grants.app), '');";

static int
db_error(struct sqlite_registry *r, struct dpkg_error *err)
{
	return dpkg_put_error(err, "%s/claims.sqlite: %s", r->dir,
	                      sqlite3_errmsg(r->db));
}

static int
exec(struct sqlite_registry *r, const char *sql, struct dpkg_error *err)
{
	if (sqlite3_exec(r->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(r, err);
	return 0;
}

static sqlite3_stmt *
prepare(struct sqlite_registry *r, const char *sql, struct dpkg_error *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_error(r, err);
		return NULL;
	}
	return st;
}


/* Column COL of the current row, "" for NULL, in new memory. */
static char *
column_dup(sqlite3_stmt *st, int col)
{
	const char *text = (const char *)sqlite3_column_text(st, col);

	return m_strdup(text ? text : "");
}

static int
make_dir(const char *dir, struct dpkg_error *err)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return dpkg_put_errno(err, "%s: cannot create directory", dir);
	return 0;
}

/*
 * Whether the grants table has its owner column (or is there at all):
 * the schema's last change.  Checks only read: once it is there they
 * need no write lock; a registry made before it gains it.
 */
static bool
grants_have_owner(struct sqlite_registry *r)
{
	sqlite3_stmt *st = NULL;
	bool found = false;

	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM pragma_table_info"
	                       "('grants') WHERE name = 'owner'", -1, &st,
	                       NULL) == SQLITE_OK)
		found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/*
 * Every check opens the registry in a new process, and the first
 * connection to a WAL database rebuilds the WAL's index by reading all of
 * it: up to the 1,000 pages before an automatic checkpoint, 4 MB read by
 * every check.  So a write empties the WAL as it ends, at two fsyncs; a
 * checkpoint that readers keep from finishing is only a saving missed.
 */
static int
commit_write(struct sqlite_registry *r, struct dpkg_error *err)
{
	if (exec(r, "COMMIT", err) < 0)
		return -1;
	/* Truncating waits for the readers in the WAL: a check's moment,
	 * but never the writer's whole busy timeout. */
	sqlite3_busy_timeout(r->db, CHECKPOINT_WAIT_MS);
	sqlite3_wal_checkpoint_v2(r->db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
	                          NULL, NULL);
	sqlite3_busy_timeout(r->db, BUSY_TIMEOUT_MS);
	return 0;
}

static int
create_schema(struct sqlite_registry *r, struct dpkg_error *err)
{
	if (exec(r, "PRAGMA journal_mode=WAL", err) < 0 ||
	    exec(r, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (exec(r, schema, err) < 0 ||
	    (!grants_have_owner(r) && exec(r, grants_owner, err) < 0)) {
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return commit_write(r, err);
}

static void
sqlite_close(struct registry *base)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	size_t i;

	for (i = 0; i < r->narchives; i++)
		contents_index_close(r->archives[i]);
	free(r->archives);
	sqlite3_close(r->db);
	free(r->contents_dir);
	free(r->dir);
	free(r);
}

static int
sqlite_open(struct registry **out, const char *db, bool create,
            struct dpkg_error *err)
{
	struct sqlite_registry *r = calloc(1, sizeof(*r));
	struct stat st;
	char *file;

	if (r == NULL)
		abort();
	r->dir = m_strdup(db);
	if (asprintf(&r->contents_dir, "%s/contents", db) < 0 ||
	    asprintf(&file, "%s/claims.sqlite", db) < 0)
		abort();
	if (create && (make_dir(db, err) < 0 ||
	               make_dir(r->contents_dir, err) < 0))
		goto fail;
	if (stat(db, &st) < 0 || !S_ISDIR(st.st_mode)) {
		dpkg_put_error(err, "%s: no such registry (a directory, or "
		               "postgresql://...)", db);
		goto fail;
	}
	if (sqlite3_open_v2(file, &r->db, SQLITE_OPEN_READWRITE |
	                    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		db_error(r, err);
		goto fail;
	}
	sqlite3_busy_timeout(r->db, BUSY_TIMEOUT_MS);
	/*
	 * Keep the -wal and -shm files when the last connection closes:
	 * otherwise every check creates and deletes them, and creating
	 * files costs more than the lookups of a check.
	 */
	{
		int persist = 1;

		sqlite3_file_control(r->db, "main", SQLITE_FCNTL_PERSIST_WAL,
		                     &persist);
		/* Nor checkpoint then (two fsyncs): writers empty the
		 * WAL as they end (commit_write). */
		sqlite3_db_config(r->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
		                  NULL);
	}
	if (!grants_have_owner(r) && create_schema(r, err) < 0)
		goto fail;
	free(file);
	*out = &r->base;
	return 0;
fail:
	free(file);
	sqlite_close(&r->base);
	return -1;
}

static int
sqlite_index(struct registry *base, const char *label,
             const char *const *files, int nfiles,
             struct contents_stats *stats, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	struct contents_builder *b;
	char *path;
	int ret;

	if (asprintf(&path, "%s/%s.idx", r->contents_dir, label) < 0)
		abort();
	b = contents_builder_new(label, path, err);
	if (b == NULL) {
		free(path);
		return -1;
	}
	ret = contents_builder_add(b, files, nfiles, err);
	if (ret == 0)
		ret = contents_builder_write(b, err);
	*stats = *contents_builder_stats(b);
	contents_builder_free(b);
	free(path);
	return ret;
}

static int
idx_filter(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 4 && d->d_name[0] != '.' &&
	       strcmp(d->d_name + len - 4, ".idx") == 0;
}

/* Map every archive's index once, in label order. */
static int
load_archives(struct sqlite_registry *r, struct dpkg_error *err)
{
	struct dirent **names;
	int n, i, ret = 0;

	if (r->archives_loaded)
		return 0;
	n = scandir(r->contents_dir, &names, idx_filter, alphasort);
	if (n < 0) {
		if (errno == ENOENT) {
			r->archives_loaded = true;
			return 0;
		}
		return dpkg_put_errno(err, "%s: cannot read", r->contents_dir);
	}
	r->archives = calloc(n ? n : 1, sizeof(*r->archives));
	if (r->archives == NULL)
		abort();
	for (i = 0; i < n; i++) {
		char *path;

		if (ret == 0) {
			if (asprintf(&path, "%s/%s", r->contents_dir,
			             names[i]->d_name) < 0)
				abort();
			ret = contents_index_open(&r->archives[r->narchives],
			                          path, err);
			if (ret == 0)
				r->narchives++;
			free(path);
		}
		free(names[i]);
	}
	free(names);
	r->archives_loaded = ret == 0;
	return ret;
}

struct find_ctx {
	registry_archive_file_fn *found;
	void *ctx;
	size_t i;
	const char *label;
	char buf[4096];
};

static void
found_list(void *arg, const char *packages, size_t len)
{
	struct find_ctx *f = arg;
	char *big = NULL;
	const char *s = f->buf;

	if (len < sizeof(f->buf)) {
		memcpy(f->buf, packages, len);
		f->buf[len] = '\0';
	} else {
		s = big = strndup(packages, len);
		if (big == NULL)
			abort();
	}
	f->found(f->ctx, f->i, f->label, s);
	free(big);
}

static void
found_directory(void *arg)
{
	struct find_ctx *f = arg;

	f->found(f->ctx, f->i, f->label, NULL);
}

static int
sqlite_archive_files(struct registry *base, const char *const *paths,
                     size_t n, registry_archive_file_fn *found, void *ctx,
                     struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	struct find_ctx f;
	size_t a;

	if (load_archives(r, err) < 0)
		return -1;
	f.found = found;
	f.ctx = ctx;
	for (a = 0; a < r->narchives; a++) {
		const struct contents_index *idx = r->archives[a];
		const char *dir = NULL;
		size_t dirlen = 0;
		bool dir_indexed = true;

		f.label = contents_index_label(idx);
		for (f.i = 0; f.i < n; f.i++) {
			const char *path = paths[f.i];
			const char *slash = strrchr(path, '/');
			size_t len = slash ? (size_t)(slash - path) : 0;

			/* Under a directory the archive lacks, it ships
			 * nothing: one probe for the directory, not one
			 * per file.  Members come directory by directory. */
			if (len > 0 && (dir == NULL || len != dirlen ||
			                memcmp(path, dir, len) != 0)) {
				dir = path;
				dirlen = len;
				dir_indexed = contents_index_is_directory(
					idx, path, len);
			}
			if (len > 0 && !dir_indexed)
				continue;
			contents_index_find(idx, path, found_list,
			                    found_directory, &f);
		}
	}
	return 0;
}

static int
sqlite_archive_package(struct registry *base, const char *name,
                       registry_archive_package_fn *found, void *ctx,
                       struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	size_t a;

	if (load_archives(r, err) < 0)
		return -1;
	for (a = 0; a < r->narchives; a++)
		if (contents_index_has_package(r->archives[a], name))
			found(ctx, contents_index_label(r->archives[a]));
	return 0;
}

static int
sqlite_claimed_files(struct registry *base, const char *const *paths,
                     size_t n, registry_claimed_file_fn *found, void *ctx,
                     struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r, "SELECT p.app, a.owner, p.package "
	                           "FROM paths p JOIN apps a ON a.app = p.app "
	                           "WHERE p.path = ?", err);
	size_t i;
	int rc = SQLITE_DONE;

	if (st == NULL)
		return -1;
	/* One read transaction: one lock, not one per path. */
	if (exec(r, "BEGIN", err) < 0) {
		sqlite3_finalize(st);
		return -1;
	}
	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		sqlite3_bind_text(st, 1, paths[i], -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			found(ctx, i, (const char *)sqlite3_column_text(st, 0),
			      (const char *)sqlite3_column_text(st, 1),
			      (const char *)sqlite3_column_text(st, 2));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_error(r, err);
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return exec(r, "COMMIT", err);
}

/* Run SQL with one text parameter; copy the first row's columns. */
static int
query_row(struct sqlite_registry *r, const char *sql, const char *param,
          char **col0, char **col1, struct dpkg_error *err)
{
	sqlite3_stmt *st = prepare(r, sql, err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, param, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*col0 = column_dup(st, 0);
		if (col1)
			*col1 = column_dup(st, 1);
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, err);
}

static int
sqlite_claimed_package(struct registry *base, const char *name, char **app,
                       char **owner, struct dpkg_error *err)
{
	return query_row((struct sqlite_registry *)base,
	                 "SELECT p.app, a.owner FROM packages p "
	                 "JOIN apps a ON a.app = p.app WHERE p.package = ?",
	                 name, app, owner, err);
}

static int
sqlite_app_owner(struct registry *base, const char *app, char **owner,
                 struct dpkg_error *err)
{
	return query_row((struct sqlite_registry *)base,
	                 "SELECT owner FROM apps WHERE app = ?", app, owner,
	                 NULL, err);
}

static int
sqlite_apps_between(struct registry *base, const char *low,
                    const char *high, registry_app_fn *found, void *ctx,
                    struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r, "SELECT app, owner FROM apps WHERE "
	                           "app >= ?1 AND app < ?2 ORDER BY app", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, low, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, high, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		found(ctx, (const char *)sqlite3_column_text(st, 0),
		      (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error((struct sqlite_registry *)base,
	                                        err);
}

/* Bind text parameters (NULL-terminated list) and step once. */
static int
run(struct sqlite_registry *r, sqlite3_stmt *st, const char *a,
    const char *b, const char *c)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (a)
		sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	if (b)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	if (c)
		sqlite3_bind_text(st, 3, c, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	(void)r;
	return rc;
}

/*
 * Begin a write and run SQL once with A, B and C bound: 0 with the write
 * still open and *CHANGES (unless NULL) the rows it changed, or -1 with it
 * rolled back.
 */
static int
begin_write_one(struct sqlite_registry *r, const char *sql, const char *a,
                const char *b, const char *c, int *changes,
                struct dpkg_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if (exec(r, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	st = prepare(r, sql, err);
	rc = st ? run(r, st, a, b, c) : SQLITE_ERROR;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		if (st != NULL)
			db_error(r, err);
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (changes != NULL)
		*changes = sqlite3_changes(r->db);
	return 0;
}

/* A write that leaves the registry as it was (nothing to remove, or a
 * key that is another uploader's) is rolled back: 1. */
static int
rollback_unchanged(struct sqlite_registry *r)
{
	sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
	return 1;
}

static int
claim_steps(struct sqlite_registry *r, const struct registry_claim *c,
            registry_refusal_fn *refused, void *ctx, int *refusals,
            struct dpkg_error *err)
{
	sqlite3_stmt *s[7] = { NULL };
	char reason[8192];
	size_t i;
	int ret = -1, rc;

	s[0] = prepare(r, "INSERT INTO apps (app, owner, claimed) VALUES "
	               "(?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) "
	               "ON CONFLICT (app) DO NOTHING", err);
	s[1] = prepare(r, "SELECT owner FROM apps WHERE app = ?", err);
	s[2] = prepare(r, "DELETE FROM packages WHERE app = ?", err);
	s[3] = prepare(r, "DELETE FROM paths WHERE app = ?", err);
	s[4] = prepare(r, "INSERT INTO packages (package, app) VALUES (?, ?) "
	               "ON CONFLICT (package) DO NOTHING "
	               "RETURNING package", err);
	s[5] = prepare(r, "INSERT INTO paths (path, app, package) VALUES "
	               "(?, ?, ?) ON CONFLICT (path) DO NOTHING "
	               "RETURNING path", err);
	s[6] = prepare(r, "SELECT x.app, a.owner FROM (SELECT app FROM "
	               "packages WHERE package = ?1 UNION ALL SELECT app FROM "
	               "paths WHERE path = ?1) x JOIN apps a ON a.app = x.app",
	               err);
	for (i = 0; i < 7; i++)
		if (s[i] == NULL)
			goto out;
	if (run(r, s[0], c->app, c->owner, NULL) != SQLITE_DONE ||
	    run(r, s[1], c->app, NULL, NULL) != SQLITE_ROW)
		goto dberr;
	if (strcmp((const char *)sqlite3_column_text(s[1], 0), c->owner)) {
		snprintf(reason, sizeof(reason), "app id %s is owned by %s",
		         c->app, sqlite3_column_text(s[1], 0));
		refused(ctx, reason);
		(*refusals)++;
		ret = 0;
		goto out;
	}
	/* Writers are serialised (BEGIN IMMEDIATE): of two apps sharing
	 * export names claimed at once, the second sees the first. */
	rc = registry_shared_names(&r->base, c->app, c->owner, refused, ctx,
	                           err);
	if (rc != 0) {
		*refusals += rc > 0 ? rc : 0;
		ret = rc > 0 ? 0 : -1;
		goto out;
	}
	if (!c->keep_files &&
	    (run(r, s[2], c->app, NULL, NULL) != SQLITE_DONE ||
	     run(r, s[3], c->app, NULL, NULL) != SQLITE_DONE))
		goto dberr;
	for (i = 0; i < c->npackages + (c->keep_files ? 0 : c->npaths);
	     i++) {
		bool is_pkg = i < c->npackages;
		const char *name = is_pkg ? c->packages[i] :
		                   c->paths[i - c->npackages];

		rc = is_pkg ? run(r, s[4], name, c->app, NULL) :
		     run(r, s[5], name, c->app,
		         c->path_packages[i - c->npackages]);
		if (rc == SQLITE_ROW)
			continue;
		if (rc != SQLITE_DONE ||
		    run(r, s[6], name, NULL, NULL) != SQLITE_ROW)
			goto dberr;
		/* Kept from an earlier claim of the app's own. */
		if (strcmp((const char *)sqlite3_column_text(s[6], 0),
		           c->app) == 0)
			continue;
		snprintf(reason, sizeof(reason), "%s %s%s is claimed by app "
		         "%s (owner %s)", is_pkg ? "package" : "file",
		         is_pkg ? "" : "/", name, sqlite3_column_text(s[6], 0),
		         sqlite3_column_text(s[6], 1));
		refused(ctx, reason);
		(*refusals)++;
	}
	ret = 0;
	goto out;
dberr:
	ret = db_error(r, err);
out:
	for (i = 0; i < 7; i++)
		sqlite3_finalize(s[i]);
	return ret;
}

static int
sqlite_claim(struct registry *base, const struct registry_claim *c,
             registry_refusal_fn *refused, void *ctx,
             struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	int refusals = 0;

	if (exec(r, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (claim_steps(r, c, refused, ctx, &refusals, err) < 0 ||
	    refusals > 0) {
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return refusals > 0 ? 1 : -1;
	}
	return commit_write(r, err);
}

static int
sqlite_release(struct registry *base, const char *owner, const char *app,
               struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	char *current = NULL;
	sqlite3_stmt *st;
	int ret = 0;

	if (exec(r, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (query_row(r, "SELECT owner FROM apps WHERE app = ?", app,
	              &current, NULL, err) < 0) {
		ret = -1;
	} else if (current == NULL || strcmp(current, owner) != 0) {
		ret = 1;
	} else {
		/* The grants go with the claim: they were the store's
		 * judgement of this owner's app, not of whoever claims
		 * the id next. */
		static const char *const sql[] = {
			"DELETE FROM grants WHERE app = ?",
			"DELETE FROM accepted WHERE app = ?",
			"DELETE FROM paths WHERE app = ?",
			"DELETE FROM packages WHERE app = ?",
			"DELETE FROM apps WHERE app = ?",
		};
		int i;

		for (i = 0; i < 5 && ret == 0; i++) {
			st = prepare(r, sql[i], err);
			if (st == NULL || run(r, st, app, NULL, NULL) !=
			    SQLITE_DONE)
				ret = st ? db_error(r, err) : -1;
			sqlite3_finalize(st);
		}
	}
	free(current);
	if (ret != 0) {
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	return commit_write(r, err);
}

static int
sqlite_list(struct registry *base, const char *owner, registry_list_fn *each,
            void *ctx, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r,
		"SELECT a.app, a.owner, a.claimed,"
		" (SELECT group_concat(package, char(10)) FROM (SELECT package"
		"  FROM packages WHERE app = a.app ORDER BY package)),"
		" (SELECT group_concat(path, char(10)) FROM (SELECT path"
		"  FROM paths WHERE app = a.app ORDER BY path))"
		" FROM apps a WHERE ?1 IS NULL OR a.owner = ?1 ORDER BY a.app",
		err);
	int rc;

	if (st == NULL)
		return -1;
	if (owner)
		sqlite3_bind_text(st, 1, owner, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		each(ctx, (const char *)sqlite3_column_text(st, 0),
		     (const char *)sqlite3_column_text(st, 1),
		     (const char *)sqlite3_column_text(st, 2),
		     sqlite3_column_text(st, 3) ?
		     (const char *)sqlite3_column_text(st, 3) : "",
		     sqlite3_column_text(st, 4) ?
		     (const char *)sqlite3_column_text(st, 4) : "");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, err);
}

static int
sqlite_last_version(struct registry *base, const char *app, char **version,
                    struct dpkg_error *err)
{
	return query_row((struct sqlite_registry *)base,
	                 "SELECT version FROM accepted WHERE app = ?", app,
	                 version, NULL, err);
}

/* Record VERSION, refusing one not newer than the last accepted. */
static int
accept_version(struct sqlite_registry *r, const struct registry_claim *c,
               const char *version, const char *fingerprint,
               registry_refusal_fn *refused, void *ctx, int *refusals,
               struct dpkg_error *err)
{
	char *last = NULL, reason[512];
	sqlite3_stmt *st;
	int rc;

	if (sqlite_last_version(&r->base, c->app, &last, err) < 0)
		return -1;
	if (last != NULL && !registry_version_newer(version, last)) {
		snprintf(reason, sizeof(reason), "version %s of %s is not "
		         "newer than %s, the last accepted", version, c->app,
		         last);
		refused(ctx, reason);
		(*refusals)++;
		free(last);
		return 0;
	}
	free(last);
	st = prepare(r, "INSERT INTO accepted (app, version, uploader, "
	             "fingerprint, accepted) VALUES (?1, ?2, ?3, ?4, "
	             "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) "
	             "ON CONFLICT (app) DO UPDATE SET version = ?2, "
	             "uploader = ?3, fingerprint = ?4, "
	             "accepted = excluded.accepted", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, c->app, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, version, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c->owner, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, fingerprint, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, err);
}

static int
sqlite_accept(struct registry *base, const struct registry_claim *c,
              const char *version, const char *fingerprint,
              registry_refusal_fn *refused, void *ctx,
              struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	int refusals = 0;

	if (exec(r, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (claim_steps(r, c, refused, ctx, &refusals, err) < 0 ||
	    (refusals == 0 &&
	     accept_version(r, c, version, fingerprint, refused, ctx,
	                    &refusals, err) < 0) ||
	    refusals > 0) {
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return refusals > 0 ? 1 : -1;
	}
	return commit_write(r, err);
}

static int
sqlite_uploader(struct registry *base, const char *fpr, char **name,
                struct dpkg_error *err)
{
	return query_row((struct sqlite_registry *)base,
	                 "SELECT name FROM uploaders WHERE fingerprint = ?",
	                 fpr, name, NULL, err);
}

static int
sqlite_uploader_add(struct registry *base, const char *fpr,
                    const char *name, char **holder, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;

	if (begin_write_one(r, "INSERT INTO uploaders (fingerprint, name, "
	                    "added) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', "
	                    "'now')) ON CONFLICT (fingerprint) DO NOTHING",
	                    fpr, name, NULL, NULL, err) < 0)
		return -1;
	if (sqlite_uploader(base, fpr, holder, err) < 0) {
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	/* The key is another uploader's. */
	if (*holder != NULL && strcmp(*holder, name) != 0)
		return rollback_unchanged(r);
	free(*holder);
	*holder = NULL;
	return commit_write(r, err);
}

static int
sqlite_uploader_remove(struct registry *base, const char *name,
                       const char *fpr, int *removed, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;

	/* An unbound ?2 is NULL: every key of the uploader. */
	if (begin_write_one(r, "DELETE FROM uploaders WHERE name = ?1 AND "
	                    "(?2 IS NULL OR fingerprint = ?2)", name, fpr,
	                    NULL, removed, err) < 0)
		return -1;
	return *removed == 0 ? rollback_unchanged(r) : commit_write(r, err);
}

static int
sqlite_uploader_list(struct registry *base, registry_uploader_fn *each,
                     void *ctx, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r, "SELECT fingerprint, name, added FROM "
	                           "uploaders ORDER BY name, fingerprint",
	                           err);
	int rc;

	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		each(ctx, (const char *)sqlite3_column_text(st, 0),
		     (const char *)sqlite3_column_text(st, 1),
		     (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, err);
}

static int
sqlite_grant_add(struct registry *base, const char *app,
                 const char *privilege, const char *owner,
                 struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;

	if (begin_write_one(r, "INSERT INTO grants (app, privilege, owner, "
	                    "granted) VALUES (?, ?, ?, strftime("
	                    "'%Y-%m-%dT%H:%M:%SZ', 'now')) ON CONFLICT (app, "
	                    "privilege) DO UPDATE SET owner = excluded.owner",
	                    app, privilege, owner, NULL, err) < 0)
		return -1;
	return commit_write(r, err);
}

static int
sqlite_grant_remove(struct registry *base, const char *app,
                    const char *privilege, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	int removed;

	if (begin_write_one(r, "DELETE FROM grants WHERE app = ? AND "
	                    "privilege = ?", app, privilege, NULL, &removed,
	                    err) < 0)
		return -1;
	return removed == 0 ? rollback_unchanged(r) : commit_write(r, err);
}

static int
sqlite_grants(struct registry *base, const char *app, registry_grant_fn *each,
              void *ctx, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r, "SELECT app, privilege, owner, granted "
	                           "FROM grants WHERE ?1 IS NULL OR app = ?1 "
	                           "ORDER BY app, privilege", err);
	int rc;

	if (st == NULL)
		return -1;
	if (app)
		sqlite3_bind_text(st, 1, app, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		each(ctx, (const char *)sqlite3_column_text(st, 0),
		     (const char *)sqlite3_column_text(st, 1),
		     (const char *)sqlite3_column_text(st, 2),
		     (const char *)sqlite3_column_text(st, 3));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, err);
}

static int
sqlite_job_add(struct registry *base, const char *dir, const char *upload,
               long long *id, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r, "INSERT INTO jobs (dir, upload, state, "
	                           "queued) VALUES (?, ?, 'queued', "
	                           "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
	                           err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, dir, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, upload, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(r, err);
	*id = sqlite3_last_insert_rowid(r->db);
	return 0;
}

static void
job_from_row(sqlite3_stmt *st, struct registry_job *job)
{
	job->id = sqlite3_column_int64(st, 0);
	job->dir = column_dup(st, 1);
	job->upload = column_dup(st, 2);
	job->state = column_dup(st, 3);
	job->attempts = sqlite3_column_int(st, 4);
	job->worker = sqlite3_column_type(st, 5) == SQLITE_NULL ? NULL :
	              column_dup(st, 5);
	job->lease_left = sqlite3_column_int64(st, 6);
}

#define JOB_COLUMNS "id, dir, upload, state, attempts, worker, " \
	"coalesce(lease_expires - strftime('%s', 'now'), 0)"

/* BEGIN IMMEDIATE: the write lock first, so two takers take turns. */
static int
sqlite_job_take(struct registry *base, const char *worker, int lease,
                struct registry_job *job, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st;
	int rc, ret = 1;

	if (exec(r, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	st = prepare(r, "UPDATE jobs SET worker = ?, attempts = attempts + 1,"
	             " lease_expires = strftime('%s', 'now') + ? WHERE id = "
	             "(SELECT id FROM jobs WHERE state NOT IN ('published',"
	             " 'refused') AND (worker IS NULL OR lease_expires <= "
	             "strftime('%s', 'now')) ORDER BY id LIMIT 1) "
	             "RETURNING " JOB_COLUMNS, err);
	if (st == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, worker, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, lease);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		job_from_row(st, job);
		rc = sqlite3_step(st);
		ret = 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_error(r, err);
		registry_job_destroy(job);
		goto fail;
	}
	if (commit_write(r, err) < 0) {
		registry_job_destroy(job);
		return -1;
	}
	return ret;
fail:
	sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int
sqlite_job_update(struct registry *base, long long id, const char *worker,
                  const char *state, int lease, struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	bool done = registry_job_done(state);
	sqlite3_stmt *st = prepare(r, "UPDATE jobs SET state = ?, worker = "
	                           "CASE WHEN ? THEN NULL ELSE worker END, "
	                           "lease_expires = CASE WHEN ? THEN NULL ELSE "
	                           "strftime('%s', 'now') + ? END "
	                           "WHERE id = ? AND worker = ?", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, done);
	sqlite3_bind_int(st, 3, done);
	sqlite3_bind_int(st, 4, lease);
	sqlite3_bind_int64(st, 5, id);
	sqlite3_bind_text(st, 6, worker, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(r, err);
	return sqlite3_changes(r->db) == 1 ? 0 : 1;
}

static int
sqlite_job_list(struct registry *base, registry_job_fn *each, void *ctx,
                struct dpkg_error *err)
{
	struct sqlite_registry *r = (struct sqlite_registry *)base;
	sqlite3_stmt *st = prepare(r, "SELECT " JOB_COLUMNS " FROM jobs "
	                           "ORDER BY id", err);
	struct registry_job job;
	int rc;

	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		job_from_row(st, &job);
		each(ctx, &job);
		registry_job_destroy(&job);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, err);
}

const struct registry_ops registry_sqlite_ops = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.index = sqlite_index,
	.archive_files = sqlite_archive_files,
	.archive_package = sqlite_archive_package,
	.claimed_files = sqlite_claimed_files,
	.claimed_package = sqlite_claimed_package,
	.app_owner = sqlite_app_owner,
	.apps_between = sqlite_apps_between,
	.claim = sqlite_claim,
	.release = sqlite_release,
	.list = sqlite_list,
	.accept = sqlite_accept,
	.last_version = sqlite_last_version,
	.uploader_add = sqlite_uploader_add,
	.uploader = sqlite_uploader,
	.uploader_remove = sqlite_uploader_remove,
	.uploader_list = sqlite_uploader_list,
	.grant_add = sqlite_grant_add,
	.grant_remove = sqlite_grant_remove,
	.grants = sqlite_grants,
	.job_add = sqlite_job_add,
	.job_take = sqlite_job_take,
	.job_update = sqlite_job_update,
	.job_list = sqlite_job_list,
};
