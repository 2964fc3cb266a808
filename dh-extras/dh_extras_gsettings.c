/*
 * dh_extras_gsettings: compile an app's GSettings schemas inside its
 * namespace and launch its exported entry points with them in sight (run
 * by dh after dh_extras_relocate).
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/subproc.h>

#include "declaration.h"
#include "dh-helper.h"
#include "dh-namespace.h"
#include "file-rewrite.h"
#include "gsettings-exec.h"

#define NAME "dh_extras_gsettings"
#define SCHEMAS "share/glib-2.0/schemas"

static const char usage[] =
	"Usage: " NAME " [debhelper options]\n"
	"\n"
	"Compile the GSettings schemas that relocation moved to\n"
	"ROOT/APP/" SCHEMAS " with glib-compile-schemas, and make the\n"
	"exported .desktop and D-Bus service files run the app's programs\n"
	"with GSETTINGS_SCHEMA_DIR pointing there.\n"
	"\n"
	"  -p PKG, -N PKG, -a, -i, -v, --no-act, -O OPT\n"
	"                     as for every debhelper command\n";

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

/* Patch the Exec= lines of every file matching PATTERN in PKGDIR/SUB. */
static void
patch_entry_points(const struct dh_helper *h, struct gsettings_exec *g,
                   const char *pkgdir, const char *sub, const char *pattern)
{
	char dir[1024], path[2048];
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s", pkgdir, sub);
	dp = opendir(dir);
	if (dp == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (fnmatch(pattern, d->d_name, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (file_rewrite(path, gsettings_exec_patch, g, h->no_act))
			dh_helper_info(h, "%s: Exec= runs with "
			               "GSETTINGS_SCHEMA_DIR=%s", path,
			               g->schema_dir);
	}
	closedir(dp);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct gsettings_exec g;
	char err[1024], schema_dir[512];
	bool any = false;
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, usage);
	if (dh_namespace_find(h.control.source, &decl, &ns, err,
	                      sizeof(err)) < 0)
		ohshit("%s", err);
	snprintf(schema_dir, sizeof(schema_dir), "%s/" SCHEMAS, ns.path);
	g.ns_path = ns.path;
	g.schema_dir = schema_dir;

	/*
	 * The packages of one source share the namespace: schemas shipped
	 * by any of them (say APP-data) serve the programs of all.
	 */
	for (i = 0; i < h.control.count; i++) {
		char dir[1024];

		snprintf(dir, sizeof(dir), "debian/%s/%s/" SCHEMAS,
		         h.control.packages[i].name, ns.rel);
		if (h.act[i] && dir_has(dir, "*.gschema.xml"))
			compile_schemas(&h, dir);
		if (dir_has(dir, "*.gschema.xml") ||
		    dir_has(dir, "gschemas.compiled"))
			any = true;
	}
	for (i = 0; any && i < h.control.count; i++) {
		char pkgdir[512];

		if (!h.act[i])
			continue;
		snprintf(pkgdir, sizeof(pkgdir), "debian/%s",
		         h.control.packages[i].name);
		patch_entry_points(&h, &g, pkgdir, "usr/share/applications",
		                   "*.desktop");
		patch_entry_points(&h, &g, pkgdir, "usr/share/dbus-1/services",
		                   "*.service");
	}
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
