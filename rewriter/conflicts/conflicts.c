/*
 * conflicts.c: what in a binary package clashes with the archives or
 * with other apps' claims.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "base/strings.h"
#include "conflicts/conflicts.h"
#include "debian/relation.h"
#include "namespace/declaration.h"
#include "namespace/identity.h"
#include "namespace/reserved.h"

/* libdpkg's m_strdup, for the fields a conflict may lack. */
static char *
strdup_or_null(const char *s)
{
	return s == NULL ? NULL : m_strdup(s);
}

static void
add(struct conflict_list *list, enum conflict_kind kind,
    const char *package, const char *name, const char *archive,
    const char *other, const char *owner)
{
	struct conflict *c;

	list->v = realloc(list->v, (list->n + 1) * sizeof(*list->v));
	if (list->v == NULL)
		abort();
	c = &list->v[list->n++];
	c->kind = kind;
	c->package = strdup_or_null(package);
	c->name = strdup_or_null(name);
	c->archive = strdup_or_null(archive);
	c->other = strdup_or_null(other);
	c->owner = strdup_or_null(owner);
	c->path = NULL;
}

const char *
conflicts_app(const struct debfile *deb, struct dpkg_error *err)
{
	const char *app = namespace_app_of_package(deb->source);
	const char *why = namespace_check_app(app);

	if (why != NULL) {
		dpkg_put_error(err, "%s: app id '%s' %s", deb->filename, app,
		               why);
		return NULL;
	}
	return app;
}

/*
 * The root R for which R/APP holds the most members of DEB: each member
 * votes for every prefix followed by an APP component.
 */
static void
find_root(const struct debfile *deb, const char *app, char *best,
          size_t bestlen)
{
	size_t applen = strlen(app), i, j, ncand = 0, top = 0;
	struct { char root[EXTRAS_ROOT_MAX + 1]; size_t votes; } cand[16];

	snprintf(best, bestlen, "%s", EXTRAS_DEFAULT_ROOT);
	for (i = 0; i < deb->nmembers; i++) {
		const char *path = deb->members[i].path, *p = path;

		while ((p = strstr(p, app)) != NULL) {
			char root[EXTRAS_ROOT_MAX + 2];
			size_t rootlen = p - path;

			/* ROOT/APP is a directory: it holds or is one. */
			if (p > path && p[-1] == '/' &&
			    (p[applen] == '/' || (p[applen] == '\0' &&
			     deb->members[i].type == DEBFILE_DIRECTORY)) &&
			    rootlen <= EXTRAS_ROOT_MAX) {
				root[0] = '/';
				memcpy(root + 1, path, rootlen - 1);
				root[rootlen] = '\0';
				if (namespace_check_root(root) == NULL) {
					for (j = 0; j < ncand; j++)
						if (!strcmp(cand[j].root, root))
							break;
					if (j == ncand && ncand < 16) {
						strcpy(cand[ncand].root, root);
						cand[ncand++].votes = 0;
					}
					if (j < ncand)
						cand[j].votes++;
				}
			}
			p += applen;
		}
	}
	for (j = 0; j < ncand; j++) {
		bool is_default = strcmp(cand[j].root, EXTRAS_DEFAULT_ROOT) == 0;

		if (cand[j].votes > top || (cand[j].votes == top && is_default)) {
			size_t l = strlen(cand[j].root);

			top = cand[j].votes;
			if (l < bestlen)
				memcpy(best, cand[j].root, l + 1);
		}
	}
}

bool
conflicts_is_extras(const struct debfile *deb)
{
	return strncmp(deb->package, EXTRAS_PREFIX,
	               strlen(EXTRAS_PREFIX)) == 0;
}

int
conflicts_namespace(const struct debfile *deb, const char *root,
                    struct extras_namespace *ns, struct dpkg_error *err)
{
	char found[EXTRAS_ROOT_MAX + 1];
	const char *app, *why;

	if (!conflicts_is_extras(deb)) {
		memset(ns, 0, sizeof(*ns));
		snprintf(ns->app, sizeof(ns->app), "%s", deb->source);
		ns->rel = ns->path;
		return 0;
	}
	app = conflicts_app(deb, err);
	if (app == NULL)
		return -1;
	if (root == NULL) {
		find_root(deb, app, found, sizeof(found));
		root = found;
	}
	why = namespace_init(ns, app, root);
	if (why != NULL)
		return dpkg_put_error(err, "%s: namespace root '%s' or app id "
		                      "'%s' %s", deb->filename, root, app, why);
	return 0;
}

size_t *
conflicts_exports(const struct debfile *deb,
                  const struct extras_namespace *ns, size_t *n)
{
	size_t *v = malloc((deb->nmembers + 1) * sizeof(*v));
	size_t rellen = strlen(ns->rel), i;
	bool extras = rellen > 0;

	if (v == NULL)
		abort();
	*n = 0;
	for (i = 0; i < deb->nmembers; i++) {
		const char *path = deb->members[i].path;

		if (deb->members[i].type == DEBFILE_DIRECTORY)
			continue;
		if (extras && strncmp(path, ns->rel, rellen) == 0 &&
		    (path[rellen] == '/' || path[rellen] == '\0'))
			continue;
		v[(*n)++] = i;
	}
	return v;
}

struct check_ctx {
	const struct debfile *deb;
	const char *app;
	const char *const *paths;
	struct conflict_list *list;
	const char *name;
	/* The packages DEB Replaces or Conflicts with (NULL-terminated). */
	char **allowed;
	/* The package checked, as LIST names it. */
	const char *package;
	bool no_upgrade;
	const char *owner;
	struct registry *r;
	int ret;
	struct dpkg_error *err;
	const char *path;
};

static void
found_name(void *arg, const char *label)
{
	struct check_ctx *c = arg;

	add(c->list, CONFLICT_PACKAGE, c->package, c->name, label, NULL,
	    NULL);
}

/* Whether NAME (LEN bytes) is one of ALLOWED. */
static bool
is_allowed(char *const *allowed, const char *name, size_t len)
{
	for (; *allowed; allowed++)
		if (strlen(*allowed) == len && memcmp(*allowed, name, len) == 0)
			return true;
	return false;
}

/*
 * The list "a,b,c" without PACKAGE (a file it ships itself is no clash:
 * an upgrade; PACKAGE NULL for none) and without the packages it Replaces
 * or Conflicts with.
 */
static char *
others(const char *packages, const char *package, char *const *allowed)
{
	char *out = malloc(strlen(packages) + 1);
	const char *p = packages;
	size_t len = package ? strlen(package) : 0, n = 0;

	if (out == NULL)
		abort();
	while (*p) {
		size_t item = strcspn(p, ",");

		if ((package == NULL || item != len ||
		     strncmp(p, package, len) != 0) &&
		    !is_allowed(allowed, p, item)) {
			if (n > 0)
				out[n++] = ',';
			memcpy(out + n, p, item);
			n += item;
		}
		p += item;
		if (*p == ',')
			p++;
	}
	out[n] = '\0';
	return out;
}

static void
found_archive_dir(void *arg, size_t i, const char *label)
{
	struct check_ctx *c = arg;
	char *path;

	if (asprintf(&path, "/%s", c->paths[i]) < 0)
		abort();
	add(c->list, CONFLICT_DIRECTORY, c->deb->package, path, label, NULL,
	    NULL);
	free(path);
}

static void
found_archive_file(void *arg, size_t i, const char *label,
                   const char *packages)
{
	struct check_ctx *c = arg;
	char *other, *path;

	if (packages == NULL) {
		found_archive_dir(c, i, label);
		return;
	}
	other = others(packages, c->no_upgrade ? NULL : c->deb->package,
	               c->allowed);
	if (other[0] != '\0') {
		if (asprintf(&path, "/%s", c->paths[i]) < 0)
			abort();
		add(c->list, CONFLICT_FILE, c->deb->package, path, label,
		    other, NULL);
		free(path);
	}
	free(other);
}

static void
found_claimed_file(void *arg, size_t i, const char *app, const char *owner,
                   const char *package)
{
	struct check_ctx *c = arg;
	char *path;

	(void)package;
	if (strcmp(app, c->app) == 0)
		return;
	if (asprintf(&path, "/%s", c->paths[i]) < 0)
		abort();
	add(c->list, CONFLICT_FILE, c->deb->package, path, NULL, app, owner);
	free(path);
}

int
conflicts_check_name(struct registry *r, const char *package,
                     const char *name, const char *app, bool no_upgrade,
                     struct conflict_list *list, struct dpkg_error *err)
{
	struct check_ctx c = { .list = list, .package = package };
	size_t n = strlen(EXTRAS_PREFIX);
	char *other, *claimer = NULL, *owner = NULL;
	int ret;

	/* The name, and its twin with or without the prefix. */
	if (strncmp(name, EXTRAS_PREFIX, n) == 0)
		other = strdup_or_null(name + n);
	else if (asprintf(&other, "%s%s", EXTRAS_PREFIX, name) < 0)
		abort();
	c.name = name;
	/* An archive upload's own name is its upgrade, not a clash; a
	 * store's upload upgrades no archive package. */
	ret = strncmp(name, EXTRAS_PREFIX, n) == 0 || no_upgrade ?
	      registry_archive_package(r, name, found_name, &c, err) : 0;
	c.name = other;
	if (ret == 0 && other[0] != '\0')
		ret = registry_archive_package(r, other, found_name, &c, err);
	free(other);
	if (ret == 0)
		ret = registry_claimed_package(r, name, &claimer, &owner, err);
	if (ret == 0 && claimer != NULL && strcmp(claimer, app) != 0)
		add(list, CONFLICT_PACKAGE, package, name, NULL, claimer,
		    owner);
	free(claimer);
	free(owner);
	return ret;
}

static void
found_app_package(void *arg, const char *label)
{
	struct check_ctx *c = arg;

	add(c->list, CONFLICT_APP, c->package, c->app, label, NULL, NULL);
}

static void
found_app_under(void *arg, const char *app, const char *owner)
{
	struct check_ctx *c = arg;

	if (c->owner == NULL || strcmp(owner, c->owner) != 0)
		add(c->list, CONFLICT_EXPORT_NAME, c->package, c->app, NULL,
		    app, owner);
}

/* A candidate holder of a name in C->path's or C->app's export names. */
static void
found_space_owner(void *arg, const char *app)
{
	struct check_ctx *c = arg;
	char *owner = NULL;

	if (c->ret < 0 || strcmp(app, c->app) == 0)
		return;
	c->ret = registry_app_owner(c->r, app, &owner, c->err);
	if (c->ret == 0 && owner != NULL &&
	    (c->owner == NULL || strcmp(owner, c->owner) != 0))
		add(c->list, CONFLICT_EXPORT_NAME, c->package,
		    c->path ? c->path : c->app, NULL, app, owner);
	free(owner);
}

/*
 * Where an archive program or its data would go by APP's name: the
 * program's user files (~/.APP, ~/.config/APP) are then likely named so
 * too, and every app's profile grants those of its id.
 */
static const char *const app_name_paths[] = {
	"usr/bin/", "usr/sbin/", "usr/games/", "bin/", "sbin/",
	"usr/share/", "usr/share/games/", "usr/lib/", "etc/",
};
#define N_APP_NAME_PATHS (sizeof(app_name_paths) / sizeof(*app_name_paths))

static void
found_app_path(void *arg, size_t i, const char *label, const char *packages)
{
	struct check_ctx *c = arg;
	char *path;
	size_t k;

	(void)packages;
	/* One path an archive says enough. */
	for (k = 0; k < c->list->n; k++)
		if (c->list->v[k].kind == CONFLICT_APP &&
		    c->list->v[k].other != NULL &&
		    c->list->v[k].archive != NULL &&
		    strcmp(c->list->v[k].archive, label) == 0 &&
		    strcmp(c->list->v[k].name, c->app) == 0)
			return;
	if (asprintf(&path, "/%s", c->paths[i]) < 0)
		abort();
	add(c->list, CONFLICT_APP, c->package, c->app, label, path, NULL);
	free(path);
}

/* APP against templates/identity/reserved-apps and the archives' paths. */
static int
check_app_name(struct registry *r, struct check_ctx *c,
               struct dpkg_error *err)
{
	char *paths[N_APP_NAME_PATHS], *holds;
	size_t i;
	int ret = reserved_app(NULL, c->app, &holds, err);

	if (ret < 0)
		return -1;
	if (ret > 0)
		add(c->list, CONFLICT_RESERVED, c->package, c->app, NULL,
		    holds, NULL);
	free(holds);
	for (i = 0; i < N_APP_NAME_PATHS; i++)
		if (asprintf(&paths[i], "%s%s", app_name_paths[i],
		             c->app) < 0)
			abort();
	c->paths = (const char *const *)paths;
	ret = registry_archive_files(r, c->paths, N_APP_NAME_PATHS,
	                             found_app_path, c, err);
	for (i = 0; i < N_APP_NAME_PATHS; i++)
		free(paths[i]);
	c->paths = NULL;
	return ret;
}

int
conflicts_check_app(struct registry *r, const char *package, const char *app,
                    const char *owner, struct conflict_list *list,
                    struct dpkg_error *err)
{
	struct check_ctx c = { .list = list, .package = package, .app = app,
	                       .owner = owner, .r = r, .err = err };

	if (registry_archive_package(r, app, found_app_package, &c, err) < 0 ||
	    check_app_name(r, &c, err) < 0)
		return -1;
	/* Apps whose export names hold APP's ("foo" of "foo-bar"), and
	 * those APP's hold ("foo-bar" of "foo"). */
	identity_space_owners(app, found_space_owner, &c);
	if (c.ret < 0)
		return -1;
	return registry_apps_under(r, app, found_app_under, &c, err);
}

/* Whether LIST, from FROM on, says another app claimed PATH ("/..."). */
static bool
claimed_elsewhere(const struct conflict_list *list, size_t from,
                  const char *path)
{
	for (; from < list->n; from++)
		if (list->v[from].kind == CONFLICT_FILE &&
		    list->v[from].archive == NULL &&
		    strcmp(list->v[from].name, path) == 0)
			return true;
	return false;
}

/*
 * The exported files of C->deb named into the extras- name space by
 * their author ("extras-NAME.desktop", icons, metainfo): NAME must not
 * lie in another owner's export names.  Documentation is named after the
 * package, whose name is checked on its own.
 */
static int
check_export_names(struct registry *r, struct check_ctx *c,
                   const char *const *paths, size_t n, size_t from,
                   struct dpkg_error *err)
{
	size_t i, plen = strlen(EXTRAS_PREFIX);

	c->r = r;
	c->err = err;
	for (i = 0; i < n && c->ret == 0; i++) {
		const char *base = strrchr(paths[i], '/');
		char *path;

		base = base ? base + 1 : paths[i];
		if (strncmp(base, EXTRAS_PREFIX, plen) != 0 ||
		    strncmp(paths[i], "usr/share/doc/", 14) == 0 ||
		    strncmp(paths[i], "usr/share/lintian/", 18) == 0)
			continue;
		if (asprintf(&path, "/%s", paths[i]) < 0)
			abort();
		c->path = path;
		/* Said once: the claim names the holder already. */
		if (!claimed_elsewhere(c->list, from, path))
			identity_space_owners(base + plen, found_space_owner,
			                      c);
		c->path = NULL;
		free(path);
	}
	return c->ret;
}

/* The names DEB Replaces or Conflicts with, NULL-terminated. */
static char **
allowed_names(const struct debfile *deb, struct dpkg_error *err)
{
	static const char *const fields[] = { "Replaces", "Conflicts", NULL };
	char **v = calloc(1, sizeof(*v));
	size_t n = 0;
	int f, i, a;

	if (v == NULL)
		abort();
	for (f = 0; fields[f]; f++) {
		const char *text = debfile_field(deb, fields[f]);
		struct relation_list l = { NULL, 0 };

		if (text == NULL)
			continue;
		if (relation_parse(&l, text, strlen(text), deb->control_name,
		                   0, fields[f], err) < 0) {
			for (i = 0; v[i]; i++)
				free(v[i]);
			free(v);
			return NULL;
		}
		for (i = 0; i < l.nitems; i++)
			for (a = 0; a < l.items[i].nalts; a++) {
				const struct relation_alt *alt =
					&l.items[i].alts[a];

				v = realloc(v, (n + 2) * sizeof(*v));
				if (v == NULL)
					abort();
				v[n] = strndup(text + alt->name,
				               alt->name_len);
				if (v[n] == NULL)
					abort();
				v[++n] = NULL;
			}
		relation_list_free(&l);
	}
	return v;
}

/*
 * The files that hold a bus name or a component id: a session service's
 * file is named after its name, a metainfo file after its id
 * (extras-review's rule), and a .desktop file after a desktop id.  An
 * extras app's id is its exported file's, extras-ID.
 */
static const char *const bus_name_files[] = {
	"usr/share/dbus-1/services/%s.service", NULL,
};
static const char *const id_files[] = {
	"usr/share/metainfo/%s.metainfo.xml",
	"usr/share/metainfo/%s.appdata.xml",
	"usr/share/appdata/%s.appdata.xml",
	"usr/share/applications/%s.desktop",
	/* A desktop id ("org.example.App.desktop") names its file. */
	"usr/share/applications/%s",
	"usr/share/metainfo/" EXTRAS_PREFIX "%s.metainfo.xml",
	NULL,
};

struct name_ctx {
	struct check_ctx *c;
	const char *const *names;	/* the declared name of each path */
};

static void
add_name(struct check_ctx *c, const char *name, const char *path,
         const char *archive, const char *other, const char *owner)
{
	add(c->list, CONFLICT_NAME, c->deb->package, name, archive, other,
	    owner);
	if (asprintf(&c->list->v[c->list->n - 1].path, "/%s", path) < 0)
		abort();
}

static void
found_archive_name(void *arg, size_t i, const char *label,
                   const char *packages)
{
	struct name_ctx *n = arg;
	char *other;

	/* A directory of that name holds nothing. */
	if (packages == NULL)
		return;
	other = others(packages, NULL, n->c->allowed);
	if (other[0] != '\0')
		add_name(n->c, n->names[i], n->c->paths[i], label, other, NULL);
	free(other);
}

static void
found_claimed_name(void *arg, size_t i, const char *app, const char *owner,
                   const char *package)
{
	struct name_ctx *n = arg;

	(void)package;
	if (strcmp(app, n->c->app) != 0)
		add_name(n->c, n->names[i], n->c->paths[i], NULL, app, owner);
}

#define N_PATTERNS(a) (sizeof(a) / sizeof(*(a)) - 1)

/* Each of the NV values of V through each of PATTERNS, appended at
 * PATHS[*N] and NAMES[*N], which have room. */
static void
name_paths(const struct declaration_value *v, size_t nv,
           const char *const *patterns, char **paths, const char **names,
           size_t *n)
{
	size_t i, k;

	for (i = 0; i < nv; i++)
		for (k = 0; patterns[k]; k++) {
			if (asprintf(&paths[*n], patterns[k], v[i].value) < 0)
				abort();
			names[(*n)++] = v[i].value;
		}
}

/*
 * The bus names and component ids C->deb declares (DEBIAN/extras.yaml)
 * beyond those its app id gives: none may be one an archive's files or
 * another app's exports hold.  extras-review lets the app use a declared
 * name; held elsewhere, it would stand in for that program.
 */
static int
check_declared_names(struct registry *r, struct check_ctx *c,
                     struct dpkg_error *err)
{
	const struct debfile_control_member *m = NULL;
	struct declaration decl;
	struct name_ctx n = { c, NULL };
	char **paths = NULL;
	const char **names = NULL;
	size_t i, count = 0;
	int ret;

	for (i = 0; i < c->deb->ncontrol_members && m == NULL; i++)
		if (strcmp(c->deb->control_members[i].name,
		           DECLARATION_CONTROL_MEMBER) == 0 &&
		    c->deb->control_members[i].data != NULL)
			m = &c->deb->control_members[i];
	if (m == NULL)
		return 0;
	/* Judged by extras-review: here only the names are wanted. */
	if (declaration_load_buffer(&decl, DECLARATION_CONTROL_MEMBER, m->data,
	                            m->size, err) < 0) {
		dpkg_error_destroy(err);
		declaration_free(&decl);
		return 0;
	}
	count = decl.n_bus_names * N_PATTERNS(bus_name_files) +
	        decl.n_ids * N_PATTERNS(id_files);
	paths = m_malloc((count + 1) * sizeof(*paths));
	names = m_malloc((count + 1) * sizeof(*names));
	count = 0;
	name_paths(decl.bus_names, decl.n_bus_names, bus_name_files, paths,
	           names, &count);
	name_paths(decl.ids, decl.n_ids, id_files, paths, names, &count);
	n.names = names;
	c->paths = (const char *const *)paths;
	ret = registry_archive_files(r, c->paths, count, found_archive_name,
	                             &n, err);
	if (ret == 0)
		ret = registry_claimed_files(r, c->paths, count,
		                             found_claimed_name, &n, err);
	c->paths = NULL;
	strings_free(paths, count);
	free(names);
	declaration_free(&decl);
	return ret;
}

int
conflicts_check(struct registry *r, const struct debfile *deb,
                const struct conflicts_options *opt,
                struct conflict_list *list, struct dpkg_error *err)
{
	struct extras_namespace ns;
	struct check_ctx c = { .deb = deb, .list = list,
	                       .package = deb->package,
	                       .no_upgrade = opt->no_upgrade,
	                       .owner = opt->owner };
	const char **paths, **files;
	char *owner = NULL;
	size_t *exports, n, i, nfiles = 0, from = list->n;
	int ret;

	if (conflicts_namespace(deb, opt->root, &ns, err) < 0)
		return -1;
	c.app = ns.app;
	c.allowed = allowed_names(deb, err);
	if (c.allowed == NULL)
		return -1;
	ret = conflicts_check_name(r, deb->package, deb->package, ns.app,
	                           opt->no_upgrade, list, err);
	if (ret == 0)
		ret = registry_app_owner(r, ns.app, &owner, err);
	if (ret == 0 && owner != NULL &&
	    (opt->owner == NULL || strcmp(owner, opt->owner) != 0))
		add(list, CONFLICT_APP, deb->package, ns.app, NULL, NULL,
		    owner);
	free(owner);

	/* Every file against the archives, as dpkg would unpack it. */
	files = malloc((deb->nmembers + 1) * sizeof(*files));
	if (files == NULL)
		abort();
	for (i = 0; i < deb->nmembers; i++)
		if (deb->members[i].type != DEBFILE_DIRECTORY)
			files[nfiles++] = deb->members[i].path;
	c.paths = files;
	if (ret == 0)
		ret = registry_archive_files(r, files, nfiles,
		                             found_archive_file, &c, err);

	/* The exports against other apps' claims. */
	exports = conflicts_exports(deb, &ns, &n);
	paths = malloc((n + 1) * sizeof(*paths));
	if (paths == NULL)
		abort();
	for (i = 0; i < n; i++)
		paths[i] = deb->members[exports[i]].path;
	c.paths = paths;
	if (ret == 0)
		ret = registry_claimed_files(r, paths, n, found_claimed_file,
		                             &c, err);
	if (ret == 0 && conflicts_is_extras(deb))
		ret = check_export_names(r, &c, paths, n, from, err);
	if (ret == 0 && conflicts_is_extras(deb))
		ret = check_declared_names(r, &c, err);
	for (i = 0; c.allowed[i]; i++)
		free(c.allowed[i]);
	free(c.allowed);
	free(files);
	free(paths);
	free(exports);
	return ret;
}

const char *
conflicts_kind_name(enum conflict_kind kind)
{
	switch (kind) {
	case CONFLICT_PACKAGE:
		return "package";
	case CONFLICT_APP:
		return "app";
	case CONFLICT_FILE:
		return "file";
	case CONFLICT_DIRECTORY:
		return "directory";
	case CONFLICT_EXPORT_NAME:
		return "export-name";
	case CONFLICT_RESERVED:
		return "reserved";
	case CONFLICT_NAME:
		return "name";
	}
	return "?";
}

void
conflicts_describe(const struct conflict *c, char *buf, size_t len)
{
	const char *what = c->kind == CONFLICT_PACKAGE ? "package name" :
	                   c->kind == CONFLICT_APP ? "app id" : "file";

	if (c->kind == CONFLICT_APP && c->archive != NULL && c->other != NULL)
		snprintf(buf, len, "app id %s is the name of %s in archive "
		         "%s: that program's files in the user's home "
		         "(~/.%s, ~/.config/%s ...) would be in its "
		         "profile's reach", c->name, c->other, c->archive,
		         c->name, c->name);
	else if (c->kind == CONFLICT_APP && c->archive != NULL)
		snprintf(buf, len, "app id %s is a package in archive %s",
		         c->name, c->archive);
	else if (c->kind == CONFLICT_RESERVED)
		snprintf(buf, len, "app id %s is reserved: the name holds %s "
		         "(templates/identity/reserved-apps)", c->name,
		         c->other);
	else if (c->kind == CONFLICT_APP)
		snprintf(buf, len, "app id %s is owned by %s", c->name,
		         c->owner);
	else if (c->kind == CONFLICT_EXPORT_NAME && c->name[0] == '/')
		snprintf(buf, len, "file %s lies in the export names of app %s "
		         "(owner %s)", c->name, c->other, c->owner);
	else if (c->kind == CONFLICT_EXPORT_NAME)
		snprintf(buf, len, "app id %s would share exported names "
		         "(extras-%s*) with app %s (owner %s)", c->name,
		         strlen(c->name) > strlen(c->other) ? c->name :
		         c->other, c->other, c->owner);
	else if (c->kind == CONFLICT_NAME && c->archive != NULL)
		snprintf(buf, len, "declared name %s is held by %s, shipped by "
		         "%s in archive %s", c->name, c->path, c->other,
		         c->archive);
	else if (c->kind == CONFLICT_NAME)
		snprintf(buf, len, "declared name %s is held by %s of app %s "
		         "(owner %s)", c->name, c->path, c->other, c->owner);
	else if (c->kind == CONFLICT_DIRECTORY)
		snprintf(buf, len, "file %s is a directory in archive %s",
		         c->name, c->archive);
	else if (c->archive != NULL && c->other != NULL)
		snprintf(buf, len, "%s %s is shipped by %s in archive %s",
		         what, c->name, c->other, c->archive);
	else if (c->archive != NULL)
		snprintf(buf, len, "%s %s exists in archive %s", what,
		         c->name, c->archive);
	else
		snprintf(buf, len, "%s %s is claimed by app %s (owner %s)",
		         what, c->name, c->other, c->owner);
}

void
conflict_list_destroy(struct conflict_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		free(list->v[i].package);
		free(list->v[i].name);
		free(list->v[i].archive);
		free(list->v[i].other);
		free(list->v[i].owner);
		free(list->v[i].path);
	}
	free(list->v);
	list->v = NULL;
	list->n = 0;
}
