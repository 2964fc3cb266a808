/*
 * dh-gsettings.c: compile an app's GSettings schemas inside its namespace
 * and launch its exported entry points with them in sight
 * (dh_extras_gsettings).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/error.h>
#include <dpkg/subproc.h>

#include "base/dpkg-catch.h"
#include "base/error-at.h"
#include "base/file-rewrite.h"
#include "dh/dh-gsettings.h"
#include "namespace/identity.h"
#include "relocate/gsettings-exec.h"
#include "relocate/launcher.h"

#define SCHEMAS "share/glib-2.0/schemas"

/* Whether DIR holds a file whose name matches PATTERN. */
static bool
dir_has(const char *dir, const char *pattern)
{
	struct dirent *d;
	bool found = false;
	DIR *dp = opendir(dir);

	if (dp == NULL)
		return false;
	while (!found && (d = readdir(dp)) != NULL)
		found = fnmatch(pattern, d->d_name, 0) == 0;
	closedir(dp);
	return found;
}

/* libdpkg's subproc_reap() reports through ohshit(). */
static void
run_compile_schemas(void *dir)
{
	pid_t pid = subproc_fork();

	if (pid == 0) {
		execlp("glib-compile-schemas", "glib-compile-schemas",
		       "--strict", (const char *)dir, (char *)NULL);
		/* The child's own error context: it says so and exits. */
		ohshite("cannot run glib-compile-schemas");
	}
	subproc_reap(pid, "glib-compile-schemas", SUBPROC_NORMAL);
}

static int
compile_schemas(const struct dh_helper *h, const char *dir,
                struct dpkg_error *err)
{
	char msg[ERROR_AT_MAX];

	dh_helper_show(h, "glib-compile-schemas --strict %s", dir);
	if (h->no_act)
		return 0;
	if (dpkg_catch(run_compile_schemas, (void *)dir, msg, sizeof(msg)) < 0)
		return dpkg_put_error(err, "%s", msg);
	return 0;
}

static char *
append_line(const char *buf, size_t len, size_t *outlen, void *line)
{
	size_t n = strlen(line);
	char *out;

	if (memmem(buf, len, line, n) != NULL || (out = malloc(len + n + 2)) == NULL)
		return NULL;
	memcpy(out, buf, len);
	*outlen = len;
	if (len > 0 && buf[len - 1] != '\n')
		out[(*outlen)++] = '\n';
	memcpy(out + *outlen, line, n);
	*outlen += n;
	return out;
}

/*
 * lintian takes /usr/bin/env for the program of the .desktop file and
 * misses it in the package: say why, for this file only, so that a
 * really missing program still shows.
 */
static int
override_env(const struct dh_helper *h, const char *package,
             const char *pkgdir, const char *file, struct dpkg_error *err)
{
	char dir[1024], path[1536], line[2048];
	/* The relocation gave the overrides the package's extras name. */
	char *renamed = identity_renamed(package);
	FILE *fp;

	package = renamed;
	snprintf(dir, sizeof(dir), "%s/usr/share/lintian/overrides", pkgdir);
	snprintf(path, sizeof(path), "%s/%s", dir, package);
	snprintf(line, sizeof(line), "# GSETTINGS_SCHEMA_DIR for the "
	         "namespace's schemas (dh_extras_gsettings)\n"
	         "%s: desktop-command-not-in-package usr/bin/env [%s]\n",
	         package, file);
	dh_helper_show(h, "echo '%s: desktop-command-not-in-package usr/bin/env [%s]' "
	               ">> %s", package, file, path);
	free(renamed);
	if (h->no_act)
		return 0;
	if (access(path, F_OK) < 0) {
		char mk[1100];

		snprintf(mk, sizeof(mk), "%s/usr/share/lintian", pkgdir);
		if ((mkdir(mk, 0755) < 0 && errno != EEXIST) ||
		    (mkdir(dir, 0755) < 0 && errno != EEXIST))
			return dpkg_put_error(err, "cannot create %s: %s", dir,
			                      strerror(errno));
		fp = fopen(path, "w");
		if (fp == NULL || fclose(fp) != 0)
			return dpkg_put_error(err, "cannot create %s: %s", path,
			                      strerror(errno));
	}
	return file_rewrite(path, append_line, line, false, err) < 0 ? -1 : 0;
}

struct programs {
	const struct dh_helper *h;
};

/*
 * Whether PATH, a program of the namespace as installed, puts NS/share
 * on XDG_DATA_DIRS itself, in whichever package of the source ships it:
 * GLib finds the schemas there.
 */
static int
program_sets_data_dirs(const struct dh_helper *h, size_t index,
                       const char *pkgdir, void *path)
{
	static char buf[65536];
	char file[4608];
	size_t n;
	FILE *fp;

	(void)h;
	(void)index;
	snprintf(file, sizeof(file), "%s%s", pkgdir, (const char *)path);
	fp = fopen(file, "r");
	if (fp == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	/* The first package that ships it answers: 1 yes, 2 no. */
	return launcher_sets_data(buf, n) ? 1 : 2;
}

static bool
sets_data_dirs(const char *path, void *ctx)
{
	const struct programs *p = ctx;

	return dh_helper_each_package(p->h, DH_EACH_LISTED,
	                              program_sets_data_dirs,
	                              (void *)path) == 1;
}

/* Patch the Exec= lines of every file matching PATTERN in PKGDIR/SUB. */
static int
patch_entry_points(const struct dh_helper *h, struct gsettings_exec *g,
                   const char *package, const char *pkgdir, const char *sub,
                   const char *pattern, struct dpkg_error *err)
{
	char dir[1024], path[2048];
	struct dirent *d;
	DIR *dp;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/%s", pkgdir, sub);
	dp = opendir(dir);
	if (dp == NULL)
		return 0;
	while (rc >= 0 && (d = readdir(dp)) != NULL) {
		if (fnmatch(pattern, d->d_name, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		rc = file_rewrite(path, gsettings_exec_patch, g, h->no_act,
		                  err);
		if (rc <= 0)
			continue;
		dh_helper_info(h, "%s: Exec= runs with GSETTINGS_SCHEMA_DIR=%s",
		               path, g->schema_dir);
		if (fnmatch("*.desktop", d->d_name, 0) == 0)
			rc = override_env(h, package, pkgdir,
			                  path + strlen(pkgdir) + 1, err);
	}
	closedir(dp);
	return rc < 0 ? -1 : 0;
}

/* Whether any package of the source ships schemas in the namespace. */
struct schemas {
	const struct extras_namespace *ns;
	bool any;
	struct dpkg_error *err;
};

/* PKGDIR's schemas compiled, when the helper acts on it. */
static int
find_schemas(const struct dh_helper *h, size_t index, const char *pkgdir,
             void *ctx)
{
	struct schemas *s = ctx;
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/%s/" SCHEMAS, pkgdir, s->ns->rel);
	if (h->act[index] && dir_has(dir, "*.gschema.xml") &&
	    compile_schemas(h, dir, s->err) < 0)
		return -1;
	if (dir_has(dir, "*.gschema.xml") ||
	    dir_has(dir, "gschemas.compiled"))
		s->any = true;
	return 0;
}

struct entry_points {
	struct gsettings_exec *g;
	struct dpkg_error *err;
};

static int
patch_package_entry_points(const struct dh_helper *h, size_t index,
                           const char *pkgdir, void *ctx)
{
	const struct entry_points *e = ctx;
	const char *package = h->control.packages[index].name;

	if (patch_entry_points(h, e->g, package, pkgdir,
	                       "usr/share/applications", "*.desktop",
	                       e->err) < 0 ||
	    patch_entry_points(h, e->g, package, pkgdir,
	                       "usr/share/dbus-1/services", "*.service",
	                       e->err) < 0)
		return -1;
	return 0;
}

int
dh_gsettings(const struct dh_helper *h, const struct extras_namespace *ns,
             struct dpkg_error *err)
{
	struct programs progs = { h };
	struct schemas schemas = { ns, false, err };
	char schema_dir[512];
	struct gsettings_exec g = {
		.ns_path = ns->path,
		.schema_dir = schema_dir,
		.sees_data = sets_data_dirs,
		.ctx = &progs,
	};
	struct entry_points e = { &g, err };

	snprintf(schema_dir, sizeof(schema_dir), "%s/" SCHEMAS, ns->path);
	/*
	 * The packages of one source share the namespace: schemas shipped
	 * by any of them (say APP-data) serve the programs of all.
	 */
	if (dh_helper_each_package(h, DH_EACH_LISTED, find_schemas,
	                           &schemas) < 0)
		return -1;
	if (!schemas.any)
		return 0;
	return dh_helper_each_package(h, DH_EACH_ACTED_ON,
	                              patch_package_entry_points, &e);
}
