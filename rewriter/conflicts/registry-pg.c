/*
 * registry-pg.c: the registry in PostgreSQL, through libpq.
 *
 * For several upload servers and build daemons sharing one registry.
 * Archives are rows (COPY in, one transaction per label, so readers see
 * the old or the new one); claims rely on the primary keys: a second
 * claimer's INSERT waits for the first to commit, then finds its row.
 *
 * libpq is loaded with dlopen() when a postgresql:// registry is opened:
 * linked, it and the dozen libraries it needs (TLS, Kerberos, LDAP) would
 * cost every run of every command several milliseconds of relocation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include <dpkg/dpkg.h>

#include "base/dynload.h"
#include "conflicts/registry.h"

#define LIBPQ "libpq.so.5"

#define PQ_FUNCTIONS(X) \
	X(PQclear) \
	X(PQcmdTuples) \
	X(PQconnectdb) \
	X(PQerrorMessage) \
	X(PQexec) \
	X(PQexecParams) \
	X(PQfinish) \
	X(PQgetResult) \
	X(PQgetisnull) \
	X(PQgetvalue) \
	X(PQntuples) \
	X(PQputCopyData) \
	X(PQputCopyEnd) \
	X(PQresultStatus) \
	X(PQsetNoticeProcessor) \
	X(PQstatus)

DYNLOAD_LIBRARY(libpq, LIBPQ, PQ_FUNCTIONS)

/* From here on, every call goes through the loaded pointers. */
#define PQclear (*dl_PQclear)
#define PQcmdTuples (*dl_PQcmdTuples)
#define PQconnectdb (*dl_PQconnectdb)
#define PQerrorMessage (*dl_PQerrorMessage)
#define PQexec (*dl_PQexec)
#define PQexecParams (*dl_PQexecParams)
#define PQfinish (*dl_PQfinish)
#define PQgetResult (*dl_PQgetResult)
#define PQgetisnull (*dl_PQgetisnull)
#define PQgetvalue (*dl_PQgetvalue)
#define PQntuples (*dl_PQntuples)
#define PQputCopyData (*dl_PQputCopyData)
#define PQputCopyEnd (*dl_PQputCopyEnd)
#define PQresultStatus (*dl_PQresultStatus)
#define PQsetNoticeProcessor (*dl_PQsetNoticeProcessor)
#define PQstatus (*dl_PQstatus)

/* Serialises schema creation across processes (any fixed number). */
#define SCHEMA_LOCK 0x6478636f6e66

struct pg_registry {
	struct registry base;
	PGconn *conn;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS archives ("
	" label TEXT PRIMARY KEY, entries BIGINT NOT NULL,"
	" indexed TIMESTAMPTZ NOT NULL DEFAULT now());"
	"CREATE TABLE IF NOT EXISTS contents ("
	" label TEXT NOT NULL REFERENCES archives ON DELETE CASCADE,"
	" path TEXT NOT NULL, packages TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS contents_path ON contents (path);"
	"CREATE INDEX IF NOT EXISTS contents_label ON contents (label);"
	"CREATE TABLE IF NOT EXISTS archive_packages ("
	" label TEXT NOT NULL REFERENCES archives ON DELETE CASCADE,"
	" package TEXT NOT NULL, PRIMARY KEY (package, label));"
	"CREATE TABLE IF NOT EXISTS apps ("
	" app TEXT PRIMARY KEY, owner TEXT NOT NULL, claimed TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS packages ("
	" package TEXT PRIMARY KEY, app TEXT NOT NULL REFERENCES apps);"
	"CREATE INDEX IF NOT EXISTS packages_app ON packages (app);"
	"CREATE TABLE IF NOT EXISTS paths ("
	" path TEXT PRIMARY KEY, app TEXT NOT NULL REFERENCES apps,"
	" package TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS paths_app ON paths (app);"
	"CREATE TABLE IF NOT EXISTS uploaders ("
	" fingerprint TEXT PRIMARY KEY, name TEXT NOT NULL,"
	" added TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS accepted ("
	" app TEXT PRIMARY KEY REFERENCES apps, version TEXT NOT NULL,"
	" uploader TEXT NOT NULL, fingerprint TEXT NOT NULL,"
	" accepted TEXT NOT NULL);"
	/* The store's pipeline: one row per upload (registry.h). */
	"CREATE TABLE IF NOT EXISTS jobs ("
	" id BIGSERIAL PRIMARY KEY, dir TEXT NOT NULL,"
	" upload TEXT NOT NULL, state TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0, worker TEXT,"
	" lease_expires BIGINT, queued TEXT NOT NULL);"
	/* The reserved privileges the operator grants an app id, claimed
	 * or not yet (no reference to apps), for one uploader's uploads. */
	"CREATE TABLE IF NOT EXISTS grants ("
	" app TEXT NOT NULL, privilege TEXT NOT NULL, granted TEXT NOT NULL,"
	" owner TEXT NOT NULL DEFAULT '', PRIMARY KEY (app, privilege));"
	/* A registry made before grants had an owner: each is its app's
	 * owner's then, an unclaimed app's for nobody ("") until granted
	 * again. */
	"DO $$ BEGIN"
	" IF NOT EXISTS (SELECT 1 FROM information_schema.columns"
	"  WHERE table_schema = current_schema() AND table_name = 'grants'"
	"  AND column_name = 'owner') THEN"
	"  ALTER TABLE grants ADD COLUMN owner TEXT NOT NULL DEFAULT '';"
	"  UPDATE grants SET owner = COALESCE((SELECT owner FROM apps"
	"   WHERE apps.app = grants.app), '');"
	" END IF;"
	" END $$;";

/* The server's message, on one line. */
static int
pg_fail(struct pg_registry *r, const char *what, struct dpkg_error *err)
{
	char msg[1024], *nl;

	snprintf(msg, sizeof(msg), "%s", PQerrorMessage(r->conn));
	while ((nl = strchr(msg, '\n')) != NULL)
		*nl = nl[1] ? ' ' : '\0';
	return dpkg_put_error(err, "PostgreSQL: %s: %s", what, msg);
}

/* Run SQL with up to three text parameters; NULL result on error. */
static PGresult *
query(struct pg_registry *r, const char *sql, int n, const char *a,
      const char *b, const char *c, struct dpkg_error *err)
{
	const char *params[3] = { a, b, c };
	PGresult *res = PQexecParams(r->conn, sql, n, NULL, params, NULL,
	                             NULL, 0);
	ExecStatusType s = PQresultStatus(res);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_fail(r, "query failed", err);
		PQclear(res);
		return NULL;
	}
	return res;
}

/* SQL without parameters, possibly several statements. */
static int
command(struct pg_registry *r, const char *sql, struct dpkg_error *err)
{
	PGresult *res = PQexec(r->conn, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = pg_fail(r, "query failed", err);
	PQclear(res);
	return ret;
}

/* The schema's last change, the grants' owner: once it is there,
 * opening takes no lock; a registry made before it gains it. */
static bool
has_schema(struct pg_registry *r)
{
	PGresult *res = PQexec(r->conn, "SELECT 1 FROM "
	                       "information_schema.columns WHERE "
	                       "table_schema = current_schema() AND "
	                       "table_name = 'grants' AND "
	                       "column_name = 'owner'");
	bool found = PQresultStatus(res) == PGRES_TUPLES_OK &&
	             PQntuples(res) == 1;

	PQclear(res);
	return found;
}

static void
pg_close(struct registry *base)
{
	struct pg_registry *r = (struct pg_registry *)base;

	PQfinish(r->conn);
	free(r);
}

static void
quiet_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int
pg_open(struct registry **out, const char *db, bool create,
        struct dpkg_error *err)
{
	const char *unloaded = dynload(&libpq);
	struct pg_registry *r;
	char sql[128];

	(void)create;
	if (unloaded != NULL)
		return dpkg_put_error(err, "PostgreSQL: %s", unloaded);
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		abort();
	r->conn = PQconnectdb(db);
	if (PQstatus(r->conn) != CONNECTION_OK) {
		pg_fail(r, "cannot connect", err);
		pg_close(&r->base);
		return -1;
	}
	/* "relation already exists, skipping" is no news. */
	PQsetNoticeProcessor(r->conn, quiet_notice, NULL);
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%lld)",
	         (long long)SCHEMA_LOCK);
	if (!has_schema(r) &&
	    (command(r, "BEGIN", err) < 0 || command(r, sql, err) < 0 ||
	     command(r, schema, err) < 0 || command(r, "COMMIT", err) < 0)) {
		pg_close(&r->base);
		return -1;
	}
	*out = &r->base;
	return 0;
}

/* COPY rows, buffered: label, path, packages in COPY's text format. */
struct copy {
	struct pg_registry *r;
	const char *label;
	char *buf;
	size_t len;
	bool failed;
	uint64_t directories;
};

#define COPY_BUF (1 << 20)

static void
copy_flush(struct copy *c)
{
	if (c->len > 0 && !c->failed &&
	    PQputCopyData(c->r->conn, c->buf, c->len) != 1)
		c->failed = true;
	c->len = 0;
}

static void
copy_text(struct copy *c, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = s[i];

		if (c->len + 2 > COPY_BUF)
			copy_flush(c);
		if (ch == '\\' || ch == '\t' || ch == '\n' || ch == '\r') {
			c->buf[c->len++] = '\\';
			ch = ch == '\t' ? 't' : ch == '\n' ? 'n' :
			     ch == '\r' ? 'r' : '\\';
		}
		c->buf[c->len++] = ch;
	}
}

static void
copy_byte(struct copy *c, char ch)
{
	if (c->len + 1 > COPY_BUF)
		copy_flush(c);
	c->buf[c->len++] = ch;
}

static void
copy_entry(void *ctx, const char *path, size_t pathlen, uint64_t hash,
           const char *pkgs, size_t pkglen)
{
	struct copy *c = ctx;
	const char *p = pkgs, *end = pkgs + pkglen;

	(void)hash;
	if (pkgs == NULL)
		c->directories++;
	copy_text(c, c->label, strlen(c->label));
	copy_byte(c, '\t');
	copy_text(c, path, pathlen);
	copy_byte(c, '\t');
	/* Keep the names only, as the file index does; a directory has
	 * none (the same directory may come more than once). */
	while (p < end) {
		const char *comma = memchr(p, ',', end - p);
		size_t itemlen = (comma ? comma : end) - p, namelen;
		const char *name = contents_item_package(p, itemlen, &namelen);

		if (p != pkgs)
			copy_text(c, ",", 1);
		copy_text(c, name, namelen);
		p += itemlen + 1;
	}
	copy_byte(c, '\n');
}

static int
pg_index(struct registry *base, const char *label, const char *const *files,
         int nfiles, struct contents_stats *stats, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	struct copy c = { r, label, malloc(COPY_BUF), 0, false, 0 };
	void *ctx[1] = { &c };
	PGresult *res;
	char count[32];
	int ret = -1;

	if (c.buf == NULL)
		abort();
	if (command(r, "BEGIN", err) < 0)
		goto out;
	res = query(r, "DELETE FROM archives WHERE label = $1", 1, label,
	            NULL, NULL, err);
	PQclear(res);
	if (res == NULL)
		goto rollback;
	res = query(r, "INSERT INTO archives (label, entries) VALUES ($1, 0)",
	            1, label, NULL, NULL, err);
	PQclear(res);
	if (res == NULL)
		goto rollback;
	res = PQexec(r->conn, "COPY contents (label, path, packages) "
	             "FROM STDIN");
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		PQclear(res);
		pg_fail(r, "COPY", err);
		goto rollback;
	}
	PQclear(res);
	ret = contents_read(files, nfiles, 1, copy_entry, ctx, stats, err);
	stats->directories = c.directories;
	copy_flush(&c);
	if (PQputCopyEnd(r->conn, ret < 0 ? "bad input" : NULL) != 1 ||
	    c.failed) {
		if (ret == 0)
			pg_fail(r, "COPY", err);
		ret = -1;
	}
	while ((res = PQgetResult(r->conn)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && ret == 0)
			ret = pg_fail(r, "COPY", err);
		PQclear(res);
	}
	if (ret < 0)
		goto rollback;
	snprintf(count, sizeof(count), "%llu",
	         (unsigned long long)stats->entries);
	res = query(r, "UPDATE archives SET entries = $2 WHERE label = $1",
	            2, label, count, NULL, err);
	PQclear(res);
	if (res == NULL)
		goto rollback;
	res = query(r, "INSERT INTO archive_packages (label, package) "
	            "SELECT DISTINCT $1, unnest(string_to_array(packages, ','))"
	            " FROM contents WHERE label = $1", 1, label, NULL, NULL,
	            err);
	PQclear(res);
	if (res == NULL)
		goto rollback;
	ret = command(r, "COMMIT", err);
	goto out;
rollback:
	ret = -1;
	PQclear(PQexec(r->conn, "ROLLBACK"));
out:
	free(c.buf);
	return ret;
}

/* PATHS as a PostgreSQL text array literal. */
static char *
array_literal(const char *const *paths, size_t n)
{
	size_t cap = 3, i, len = 0;
	char *s;
	const char *p;

	for (i = 0; i < n; i++)
		cap += 2 * strlen(paths[i]) + 3;
	s = malloc(cap);
	if (s == NULL)
		abort();
	s[len++] = '{';
	for (i = 0; i < n; i++) {
		if (i > 0)
			s[len++] = ',';
		s[len++] = '"';
		for (p = paths[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				s[len++] = '\\';
			s[len++] = *p;
		}
		s[len++] = '"';
	}
	s[len++] = '}';
	s[len] = '\0';
	return s;
}

/*
 * Look PATHS up with one query; ROW gets the ordinal (1-based) and the
 * other columns.
 */
static int
lookup_paths(struct pg_registry *r, const char *sql, const char *const *paths,
             size_t n, PGresult **res, struct dpkg_error *err)
{
	char *array = array_literal(paths, n);

	*res = query(r, sql, 1, array, NULL, NULL, err);
	free(array);
	return *res ? 0 : -1;
}

static int
pg_archive_files(struct registry *base, const char *const *paths, size_t n,
                 registry_archive_file_fn *found, void *ctx,
                 struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res;
	int i;

	if (lookup_paths(r, "SELECT q.i, c.label, c.packages FROM "
	                 "unnest($1::text[]) WITH ORDINALITY AS q(path, i) "
	                 "JOIN contents c ON c.path = q.path "
	                 "ORDER BY c.label, q.i, c.packages", paths, n, &res,
	                 err) < 0)
		return -1;
	for (i = 0; i < PQntuples(res); i++) {
		const char *packages = PQgetvalue(res, i, 2);

		/* A directory is a row without packages, maybe several. */
		if (packages[0] == '\0' && i > 0 &&
		    !strcmp(PQgetvalue(res, i - 1, 0), PQgetvalue(res, i, 0)) &&
		    !strcmp(PQgetvalue(res, i - 1, 1), PQgetvalue(res, i, 1)) &&
		    PQgetvalue(res, i - 1, 2)[0] == '\0')
			continue;
		found(ctx, strtoull(PQgetvalue(res, i, 0), NULL, 10) - 1,
		      PQgetvalue(res, i, 1), packages[0] ? packages : NULL);
	}
	PQclear(res);
	return 0;
}

static int
pg_archive_package(struct registry *base, const char *name,
                   registry_archive_package_fn *found, void *ctx,
                   struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT label FROM archive_packages "
	                      "WHERE package = $1 ORDER BY label", 1, name,
	                      NULL, NULL, err);
	int i;

	if (res == NULL)
		return -1;
	for (i = 0; i < PQntuples(res); i++)
		found(ctx, PQgetvalue(res, i, 0));
	PQclear(res);
	return 0;
}

static int
pg_claimed_files(struct registry *base, const char *const *paths, size_t n,
                 registry_claimed_file_fn *found, void *ctx,
                 struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res;
	int i;

	if (lookup_paths(r, "SELECT q.i, p.app, a.owner, p.package FROM "
	                 "unnest($1::text[]) WITH ORDINALITY AS q(path, i) "
	                 "JOIN paths p ON p.path = q.path "
	                 "JOIN apps a ON a.app = p.app ORDER BY q.i",
	                 paths, n, &res, err) < 0)
		return -1;
	for (i = 0; i < PQntuples(res); i++)
		found(ctx, strtoull(PQgetvalue(res, i, 0), NULL, 10) - 1,
		      PQgetvalue(res, i, 1), PQgetvalue(res, i, 2),
		      PQgetvalue(res, i, 3));
	PQclear(res);
	return 0;
}


static int
pg_claimed_package(struct registry *base, const char *name, char **app,
                   char **owner, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT p.app, a.owner FROM packages p "
	                      "JOIN apps a ON a.app = p.app "
	                      "WHERE p.package = $1", 1, name, NULL, NULL, err);

	if (res == NULL)
		return -1;
	if (PQntuples(res) > 0) {
		*app = m_strdup(PQgetvalue(res, 0, 0));
		*owner = m_strdup(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return 0;
}

static int
pg_app_owner(struct registry *base, const char *app, char **owner,
             struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT owner FROM apps WHERE app = $1", 1,
	                      app, NULL, NULL, err);

	if (res == NULL)
		return -1;
	if (PQntuples(res) > 0)
		*owner = m_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

static int
pg_apps_between(struct registry *base, const char *low, const char *high,
                registry_app_fn *found, void *ctx, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT app, owner FROM apps WHERE "
	                      "app COLLATE \"C\" >= $1 AND "
	                      "app COLLATE \"C\" < $2 "
	                      "ORDER BY app COLLATE \"C\"", 2, low, high,
	                      NULL, err);
	int i;

	if (res == NULL)
		return -1;
	for (i = 0; i < PQntuples(res); i++)
		found(ctx, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1));
	PQclear(res);
	return 0;
}

static int
claim_steps(struct pg_registry *r, const struct registry_claim *c,
            registry_refusal_fn *refused, void *ctx, int *refusals,
            struct dpkg_error *err)
{
	char reason[8192];
	PGresult *res;
	size_t i;
	int shared;

	/* Two apps sharing export names are two rows, which no row lock
	 * orders: claims take turns on one transaction-level lock, so the
	 * second sees the first (registry_shared_names() below). */
	res = query(r, "SELECT pg_advisory_xact_lock(1702390387)", 0, NULL,
	            NULL, NULL, err);
	PQclear(res);
	if (res == NULL)
		return -1;
	/* Waits here while another transaction holds a claim on APP. */
	res = query(r, "INSERT INTO apps (app, owner, claimed) VALUES ($1, $2,"
	            " to_char(now() AT TIME ZONE 'UTC',"
	            " 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')) "
	            "ON CONFLICT (app) DO NOTHING", 2, c->app, c->owner, NULL,
	            err);
	PQclear(res);
	if (res == NULL)
		return -1;
	res = query(r, "SELECT owner FROM apps WHERE app = $1", 1, c->app,
	            NULL, NULL, err);
	if (res == NULL)
		return -1;
	if (PQntuples(res) != 1 || strcmp(PQgetvalue(res, 0, 0), c->owner)) {
		snprintf(reason, sizeof(reason), "app id %s is owned by %s",
		         c->app, PQntuples(res) ? PQgetvalue(res, 0, 0) : "?");
		refused(ctx, reason);
		(*refusals)++;
		PQclear(res);
		return 0;
	}
	PQclear(res);
	shared = registry_shared_names(&r->base, c->app, c->owner, refused,
	                               ctx, err);
	if (shared != 0) {
		*refusals += shared > 0 ? shared : 0;
		return shared > 0 ? 0 : -1;
	}
	if (!c->keep_files) {
		res = query(r, "DELETE FROM packages WHERE app = $1", 1,
		            c->app, NULL, NULL, err);
		PQclear(res);
		if (res == NULL)
			return -1;
		res = query(r, "DELETE FROM paths WHERE app = $1", 1, c->app,
		            NULL, NULL, err);
		PQclear(res);
		if (res == NULL)
			return -1;
	}
	for (i = 0; i < c->npackages + (c->keep_files ? 0 : c->npaths);
	     i++) {
		bool is_pkg = i < c->npackages;
		const char *name = is_pkg ? c->packages[i] :
		                   c->paths[i - c->npackages];

		res = is_pkg ?
		      query(r, "INSERT INTO packages (package, app) VALUES "
		            "($1, $2) ON CONFLICT (package) DO NOTHING "
		            "RETURNING package", 2, name, c->app, NULL, err) :
		      query(r, "INSERT INTO paths (path, app, package) VALUES "
		            "($1, $2, $3) ON CONFLICT (path) DO NOTHING "
		            "RETURNING path", 3, name, c->app,
		            c->path_packages[i - c->npackages], err);
		if (res == NULL)
			return -1;
		if (PQntuples(res) == 1) {
			PQclear(res);
			continue;
		}
		PQclear(res);
		res = query(r, "SELECT x.app, a.owner FROM (SELECT app FROM "
		            "packages WHERE package = $1 UNION ALL SELECT app "
		            "FROM paths WHERE path = $1) x JOIN apps a "
		            "ON a.app = x.app", 1, name, NULL, NULL, err);
		if (res == NULL)
			return -1;
		/* Kept from an earlier claim of the app's own. */
		if (PQntuples(res) > 0 &&
		    strcmp(PQgetvalue(res, 0, 0), c->app) == 0) {
			PQclear(res);
			continue;
		}
		snprintf(reason, sizeof(reason), "%s %s%s is claimed by app "
		         "%s (owner %s)", is_pkg ? "package" : "file",
		         is_pkg ? "" : "/", name,
		         PQntuples(res) ? PQgetvalue(res, 0, 0) : "?",
		         PQntuples(res) ? PQgetvalue(res, 0, 1) : "?");
		PQclear(res);
		refused(ctx, reason);
		(*refusals)++;
	}
	return 0;
}

static int
pg_claim(struct registry *base, const struct registry_claim *c,
         registry_refusal_fn *refused, void *ctx, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	int refusals = 0;

	if (command(r, "BEGIN", err) < 0)
		return -1;
	if (claim_steps(r, c, refused, ctx, &refusals, err) < 0 ||
	    refusals > 0) {
		PQclear(PQexec(r->conn, "ROLLBACK"));
		return refusals > 0 ? 1 : -1;
	}
	return command(r, "COMMIT", err);
}

static int
pg_release(struct registry *base, const char *owner, const char *app,
           struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res;
	int ret = 0;

	if (command(r, "BEGIN", err) < 0)
		return -1;
	res = query(r, "SELECT owner FROM apps WHERE app = $1 FOR UPDATE", 1,
	            app, NULL, NULL, err);
	if (res == NULL)
		ret = -1;
	else if (PQntuples(res) != 1 || strcmp(PQgetvalue(res, 0, 0), owner))
		ret = 1;
	PQclear(res);
	if (ret == 0) {
		/* The grants go with the claim: they were the store's
		 * judgement of this owner's app, not of whoever claims
		 * the id next. */
		static const char *const sql[] = {
			"DELETE FROM grants WHERE app = $1",
			"DELETE FROM accepted WHERE app = $1",
			"DELETE FROM paths WHERE app = $1",
			"DELETE FROM packages WHERE app = $1",
			"DELETE FROM apps WHERE app = $1",
		};
		int i;

		for (i = 0; i < 5 && ret == 0; i++) {
			res = query(r, sql[i], 1, app, NULL, NULL, err);
			PQclear(res);
			if (res == NULL)
				ret = -1;
		}
	}
	if (ret != 0) {
		PQclear(PQexec(r->conn, "ROLLBACK"));
		return ret;
	}
	return command(r, "COMMIT", err);
}

static int
pg_list(struct registry *base, const char *owner, registry_list_fn *each,
        void *ctx, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r,
		"SELECT a.app, a.owner, a.claimed,"
		" coalesce((SELECT string_agg(package, E'\\n' ORDER BY package COLLATE \"C\")"
		"  FROM packages WHERE app = a.app), ''),"
		" coalesce((SELECT string_agg(path, E'\\n' ORDER BY path COLLATE \"C\")"
		"  FROM paths WHERE app = a.app), '')"
		" FROM apps a WHERE $1::text IS NULL OR a.owner = $1"
		" ORDER BY a.app COLLATE \"C\"", 1, owner, NULL, NULL, err);
	int i;

	if (res == NULL)
		return -1;
	for (i = 0; i < PQntuples(res); i++)
		each(ctx, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1),
		     PQgetvalue(res, i, 2), PQgetvalue(res, i, 3),
		     PQgetvalue(res, i, 4));
	PQclear(res);
	return 0;
}

/* The first column of the first row of SQL (one parameter), or NULL. */
static int
value(struct pg_registry *r, const char *sql, const char *param,
      char **out, struct dpkg_error *err)
{
	PGresult *res = query(r, sql, 1, param, NULL, NULL, err);

	if (res == NULL)
		return -1;
	if (PQntuples(res) > 0)
		*out = m_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

static int
pg_last_version(struct registry *base, const char *app, char **version,
                struct dpkg_error *err)
{
	return value((struct pg_registry *)base,
	             "SELECT version FROM accepted WHERE app = $1", app,
	             version, err);
}

static int
pg_accept(struct registry *base, const struct registry_claim *c,
          const char *version, const char *fingerprint,
          registry_refusal_fn *refused, void *ctx, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	const char *params[4] = { c->app, version, c->owner, fingerprint };
	char *last = NULL, reason[512];
	PGresult *res;
	int refusals = 0;

	if (command(r, "BEGIN", err) < 0)
		return -1;
	/* Two uploads of one app take turns from here to COMMIT. */
	res = query(r, "SELECT pg_advisory_xact_lock(hashtext($1))", 1,
	            c->app, NULL, NULL, err);
	PQclear(res);
	if (res == NULL ||
	    claim_steps(r, c, refused, ctx, &refusals, err) < 0)
		goto fail;
	if (refusals == 0 && pg_last_version(base, c->app, &last, err) < 0)
		goto fail;
	if (refusals == 0 && last != NULL &&
	    !registry_version_newer(version, last)) {
		snprintf(reason, sizeof(reason), "version %s of %s is not "
		         "newer than %s, the last accepted", version, c->app,
		         last);
		refused(ctx, reason);
		refusals++;
	}
	free(last);
	if (refusals > 0)
		goto fail;
	res = PQexecParams(r->conn, "INSERT INTO accepted (app, version, "
	                   "uploader, fingerprint, accepted) VALUES ($1, $2, "
	                   "$3, $4, to_char(now() AT TIME ZONE 'UTC', "
	                   "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')) "
	                   "ON CONFLICT (app) DO UPDATE SET version = $2, "
	                   "uploader = $3, fingerprint = $4, "
	                   "accepted = excluded.accepted", 4, NULL, params,
	                   NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		PQclear(res);
		pg_fail(r, "query failed", err);
		goto fail;
	}
	PQclear(res);
	return command(r, "COMMIT", err);
fail:
	PQclear(PQexec(r->conn, "ROLLBACK"));
	return refusals > 0 ? 1 : -1;
}

static int
pg_uploader(struct registry *base, const char *fpr, char **name,
            struct dpkg_error *err)
{
	return value((struct pg_registry *)base,
	             "SELECT name FROM uploaders WHERE fingerprint = $1", fpr,
	             name, err);
}

static int
pg_uploader_add(struct registry *base, const char *fpr, const char *name,
                char **holder, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "INSERT INTO uploaders (fingerprint, name, "
	                      "added) VALUES ($1, $2, to_char(now() AT TIME "
	                      "ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')) "
	                      "ON CONFLICT (fingerprint) DO NOTHING", 2, fpr,
	                      name, NULL, err);

	PQclear(res);
	if (res == NULL || pg_uploader(base, fpr, holder, err) < 0)
		return -1;
	if (*holder != NULL && strcmp(*holder, name) != 0)
		return 1;
	free(*holder);
	*holder = NULL;
	return 0;
}

static int
pg_uploader_remove(struct registry *base, const char *name, const char *fpr,
                   int *removed, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	/* A NULL $2: every key of the uploader. */
	PGresult *res = query(r, "DELETE FROM uploaders WHERE name = $1 AND "
	                      "($2::text IS NULL OR fingerprint = $2) "
	                      "RETURNING fingerprint", 2, name, fpr, NULL, err);

	if (res == NULL)
		return -1;
	*removed = PQntuples(res);
	PQclear(res);
	return *removed == 0 ? 1 : 0;
}

static int
pg_uploader_list(struct registry *base, registry_uploader_fn *each,
                 void *ctx, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT fingerprint, name, added FROM "
	                      "uploaders ORDER BY name COLLATE \"C\", "
	                      "fingerprint", 0, NULL, NULL, NULL, err);
	int i;

	if (res == NULL)
		return -1;
	for (i = 0; i < PQntuples(res); i++)
		each(ctx, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1),
		     PQgetvalue(res, i, 2));
	PQclear(res);
	return 0;
}

static int
pg_grant_add(struct registry *base, const char *app, const char *privilege,
             const char *owner, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "INSERT INTO grants (app, privilege, owner, "
	                      "granted) VALUES ($1, $2, $3, to_char(now() AT "
	                      "TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS"
	                      "\"Z\"')) ON CONFLICT (app, privilege) DO UPDATE "
	                      "SET owner = excluded.owner", 3, app, privilege,
	                      owner, err);

	PQclear(res);
	return res == NULL ? -1 : 0;
}

static int
pg_grant_remove(struct registry *base, const char *app,
                const char *privilege, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "DELETE FROM grants WHERE app = $1 AND "
	                      "privilege = $2 RETURNING app", 2, app,
	                      privilege, NULL, err);
	int removed;

	if (res == NULL)
		return -1;
	removed = PQntuples(res);
	PQclear(res);
	return removed == 0 ? 1 : 0;
}

static int
pg_grants(struct registry *base, const char *app, registry_grant_fn *each,
          void *ctx, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT app, privilege, owner, granted "
	                      "FROM grants "
	                      "WHERE $1::text IS NULL OR app = $1 "
	                      "ORDER BY app COLLATE \"C\", "
	                      "privilege COLLATE \"C\"", 1, app, NULL, NULL,
	                      err);
	int i;

	if (res == NULL)
		return -1;
	for (i = 0; i < PQntuples(res); i++)
		each(ctx, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1),
		     PQgetvalue(res, i, 2), PQgetvalue(res, i, 3));
	PQclear(res);
	return 0;
}

static int
pg_job_add(struct registry *base, const char *dir, const char *upload,
           long long *id, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "INSERT INTO jobs (dir, upload, state, queued) "
	                      "VALUES ($1, $2, 'queued', to_char(now() AT TIME "
	                      "ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')) "
	                      "RETURNING id", 2, dir, upload, NULL, err);

	if (res == NULL)
		return -1;
	*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return 0;
}

#define JOB_COLUMNS "id, dir, upload, state, attempts, worker, " \
	"coalesce(lease_expires - extract(epoch FROM now())::bigint, 0)"

static void
job_from_row(PGresult *res, int row, struct registry_job *job)
{
	job->id = strtoll(PQgetvalue(res, row, 0), NULL, 10);
	job->dir = m_strdup(PQgetvalue(res, row, 1));
	job->upload = m_strdup(PQgetvalue(res, row, 2));
	job->state = m_strdup(PQgetvalue(res, row, 3));
	job->attempts = atoi(PQgetvalue(res, row, 4));
	job->worker = PQgetisnull(res, row, 5) ? NULL :
	              m_strdup(PQgetvalue(res, row, 5));
	job->lease_left = strtoll(PQgetvalue(res, row, 6), NULL, 10);
}

/*
 * One statement: the row the subquery picks is locked, and a worker
 * taking at the same moment skips it (SKIP LOCKED) for the next one.
 */
static int
pg_job_take(struct registry *base, const char *worker, int lease,
            struct registry_job *job, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	char seconds[16];
	PGresult *res;
	int ret = 1;

	snprintf(seconds, sizeof(seconds), "%d", lease);
	res = query(r, "UPDATE jobs SET worker = $1, attempts = attempts + 1,"
	            " lease_expires = extract(epoch FROM now())::bigint + "
	            "$2::integer WHERE id = (SELECT id FROM jobs WHERE state "
	            "NOT IN ('published', 'refused') AND (worker IS NULL OR "
	            "lease_expires <= extract(epoch FROM now())::bigint) "
	            "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) "
	            "RETURNING " JOB_COLUMNS, 2, worker, seconds, NULL, err);
	if (res == NULL)
		return -1;
	if (PQntuples(res) == 1) {
		job_from_row(res, 0, job);
		ret = 0;
	}
	PQclear(res);
	return ret;
}

static int
pg_job_update(struct registry *base, long long id, const char *worker,
              const char *state, int lease, struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	char seconds[32], ident[32];
	const char *params[4] = { state, seconds, ident, worker };
	PGresult *res;
	int ret;

	snprintf(seconds, sizeof(seconds), "%d", lease);
	snprintf(ident, sizeof(ident), "%lld", id);
	res = PQexecParams(r->conn, registry_job_done(state) ?
	                   "UPDATE jobs SET state = $1, worker = NULL, "
	                   "lease_expires = NULL WHERE $2::integer >= 0 AND "
	                   "id = $3::bigint AND worker = $4" :
	                   "UPDATE jobs SET state = $1, lease_expires = "
	                   "extract(epoch FROM now())::bigint + $2::integer "
	                   "WHERE id = $3::bigint AND worker = $4", 4, NULL,
	                   params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		PQclear(res);
		return pg_fail(r, "query failed", err);
	}
	ret = strcmp(PQcmdTuples(res), "1") == 0 ? 0 : 1;
	PQclear(res);
	return ret;
}

static int
pg_job_list(struct registry *base, registry_job_fn *each, void *ctx,
            struct dpkg_error *err)
{
	struct pg_registry *r = (struct pg_registry *)base;
	PGresult *res = query(r, "SELECT " JOB_COLUMNS " FROM jobs ORDER BY id",
	                      0, NULL, NULL, NULL, err);
	struct registry_job job;
	int i;

	if (res == NULL)
		return -1;
	for (i = 0; i < PQntuples(res); i++) {
		job_from_row(res, i, &job);
		each(ctx, &job);
		registry_job_destroy(&job);
	}
	PQclear(res);
	return 0;
}

const struct registry_ops registry_pg_ops = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.index = pg_index,
	.archive_files = pg_archive_files,
	.archive_package = pg_archive_package,
	.claimed_files = pg_claimed_files,
	.claimed_package = pg_claimed_package,
	.app_owner = pg_app_owner,
	.apps_between = pg_apps_between,
	.claim = pg_claim,
	.release = pg_release,
	.list = pg_list,
	.accept = pg_accept,
	.last_version = pg_last_version,
	.uploader_add = pg_uploader_add,
	.uploader = pg_uploader,
	.uploader_remove = pg_uploader_remove,
	.uploader_list = pg_uploader_list,
	.grant_add = pg_grant_add,
	.grant_remove = pg_grant_remove,
	.grants = pg_grants,
	.job_add = pg_job_add,
	.job_take = pg_job_take,
	.job_update = pg_job_update,
	.job_list = pg_job_list,
};
