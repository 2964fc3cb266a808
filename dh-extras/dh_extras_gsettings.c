/*
 * dh_extras_gsettings: compile an app's GSettings schemas inside its
 * namespace and launch its exported entry points with them in sight (run
 * by dh after dh_extras_relocate).
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
#include <dpkg/subproc.h>

#include "namespace/declaration.h"
#include "namespace/identity.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "base/file-rewrite.h"
#include "relocate/gsettings-exec.h"
#include "relocate/launcher.h"

#include "dh_extras_gsettings.usage.h"

#define NAME "dh_extras_gsettings"
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

static void
compile_schemas(const struct dh_helper *h, const char *dir)
{
	pid_t pid;

	dh_helper_show(h, "glib-compile-schemas --strict %s", dir);
	if (h->no_act)
		return;
	pid = subproc_fork();
	if (pid == 0) {
		execlp("glib-compile-schemas", "glib-compile-schemas",
		       "--strict", dir, (char *)NULL);
		ohshite("cannot run glib-compile-schemas");
	}
	subproc_reap(pid, "glib-compile-schemas", SUBPROC_NORMAL);
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
static void
override_env(const struct dh_helper *h, const char *package,
             const char *pkgdir, const char *file)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
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
		return;
	if (access(path, F_OK) < 0) {
		char mk[1100];

		snprintf(mk, sizeof(mk), "%s/usr/share/lintian", pkgdir);
		if ((mkdir(mk, 0755) < 0 && errno != EEXIST) ||
		    (mkdir(dir, 0755) < 0 && errno != EEXIST))
			ohshite("cannot create %s", dir);
		fp = fopen(path, "w");
		if (fp == NULL || fclose(fp) != 0)
			ohshite("cannot create %s", path);
	}
	if (file_rewrite(path, append_line, line, false, &err) < 0)
		ohshit("%s", err.str);
}

struct programs {
	const struct dh_helper *h;
	const struct extras_namespace *ns;
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
static void
patch_entry_points(const struct dh_helper *h, struct gsettings_exec *g,
                   const char *package, const char *pkgdir, const char *sub,
                   const char *pattern)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char dir[1024], path[2048];
	struct dirent *d;
	DIR *dp;
	int rc;

	snprintf(dir, sizeof(dir), "%s/%s", pkgdir, sub);
	dp = opendir(dir);
	if (dp == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (fnmatch(pattern, d->d_name, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		rc = file_rewrite(path, gsettings_exec_patch, g, h->no_act, &err);
		if (rc < 0)
			ohshit("%s", err.str);
		if (rc == 0)
			continue;
		dh_helper_info(h, "%s: Exec= runs with GSETTINGS_SCHEMA_DIR=%s",
		               path, g->schema_dir);
		if (fnmatch("*.desktop", d->d_name, 0) == 0)
			override_env(h, package, pkgdir,
			             path + strlen(pkgdir) + 1);
	}
	closedir(dp);
}

/* Whether any package of the source ships schemas in the namespace. */
struct schemas {
	const struct extras_namespace *ns;
	bool any;
};

/* PKGDIR's schemas compiled, when the helper acts on it. */
static int
find_schemas(const struct dh_helper *h, size_t index, const char *pkgdir,
             void *ctx)
{
	struct schemas *s = ctx;
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/%s/" SCHEMAS, pkgdir, s->ns->rel);
	if (h->act[index] && dir_has(dir, "*.gschema.xml"))
		compile_schemas(h, dir);
	if (dir_has(dir, "*.gschema.xml") ||
	    dir_has(dir, "gschemas.compiled"))
		s->any = true;
	return 0;
}

static int
patch_package_entry_points(const struct dh_helper *h, size_t index,
                           const char *pkgdir, void *g)
{
	const char *package = h->control.packages[index].name;

	patch_entry_points(h, g, package, pkgdir, "usr/share/applications",
	                   "*.desktop");
	patch_entry_points(h, g, package, pkgdir, "usr/share/dbus-1/services",
	                   "*.service");
	return 0;
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct gsettings_exec g;
	struct programs progs;
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct schemas schemas = { &ns, false };
	char schema_dir[512];

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	snprintf(schema_dir, sizeof(schema_dir), "%s/" SCHEMAS, ns.path);
	g.ns_path = ns.path;
	g.schema_dir = schema_dir;
	g.sees_data = sets_data_dirs;
	g.ctx = &progs;
	progs.h = &h;
	progs.ns = &ns;

	/*
	 * The packages of one source share the namespace: schemas shipped
	 * by any of them (say APP-data) serve the programs of all.
	 */
	dh_helper_each_package(&h, DH_EACH_LISTED, find_schemas, &schemas);
	if (schemas.any)
		dh_helper_each_package(&h, DH_EACH_ACTED_ON,
		                       patch_package_entry_points, &g);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
