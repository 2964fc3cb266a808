/*
 * dh_extras_python: make the Python programs of a namespace find its
 * modules, and byte-compile them where they live (run by dh after
 * dh_extras_relocate).
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "base/datadir.h"
#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "base/file-rewrite.h"
#include "relocate/python-launcher.h"
#include "apparmor/snippet-template.h"

#include "dh_extras_python.usage.h"

#define NAME "dh_extras_python"
#define MAX_DIRS 16

static const char *const program_dirs[] = {
	"bin", "sbin", "games", "libexec", NULL,
};

struct modules {
	char *dirs[MAX_DIRS];	/* absolute, as installed */
	size_t n;
};

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void
modules_add(struct modules *m, const char *dir)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strcmp(m->dirs[i], dir) == 0)
			return;
	if (m->n == MAX_DIRS)
		ohshit("more than %d Python module directories", MAX_DIRS);
	m->dirs[m->n] = strdup(dir);
	if (m->dirs[m->n++] == NULL)
		ohshit("out of memory");
}

/*
 * Add the module directories PKGDIR ships in the namespace to M; returns
 * how many it ships.
 */
static size_t
find_modules(const struct extras_namespace *ns, const char *pkgdir,
             struct modules *m)
{
	static const char *const kinds[] = { "dist-packages", "site-packages" };
	char lib[1024], path[2048];
	struct dirent *d;
	size_t found = 0, k;
	DIR *dp;

	snprintf(lib, sizeof(lib), "%s/%s/lib", pkgdir, ns->rel);
	dp = opendir(lib);
	if (dp == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		if (fnmatch("python3*", d->d_name, 0) != 0)
			continue;
		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", lib, d->d_name,
			         kinds[k]);
			if (!is_dir(path))
				continue;
			snprintf(path, sizeof(path), "%s/lib/%s/%s", ns->path,
			         d->d_name, kinds[k]);
			modules_add(m, path);
			found++;
		}
	}
	closedir(dp);
	return found;
}

/* Whether PATH is a regular file starting with "#!". */
static bool
is_script(const char *path)
{
	char head[2];
	struct stat st;
	FILE *fp;
	bool yes;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fp = fopen(path, "r");
	if (fp == NULL)
		ohshite("cannot open %s", path);
	yes = fread(head, 1, 2, fp) == 2 && memcmp(head, "#!", 2) == 0;
	fclose(fp);
	return yes;
}

static void
patch_launchers(const struct dh_helper *h, const struct extras_namespace *ns,
                const char *pkgdir, struct python_launcher *pl)
{
	char dir[1024], path[2048];
	struct dirent *d;
	size_t i;
	DIR *dp;

	for (i = 0; program_dirs[i]; i++) {
		snprintf(dir, sizeof(dir), "%s/%s/%s", pkgdir, ns->rel,
		         program_dirs[i]);
		dp = opendir(dir);
		if (dp == NULL)
			continue;
		while ((d = readdir(dp)) != NULL) {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			if (!is_script(path))
				continue;
			if (file_rewrite(path, python_launcher_patch, pl,
			                 h->no_act))
				dh_helper_info(h, "%s: finds its modules in "
				               "the namespace", path);
		}
		closedir(dp);
	}
}

/*
 * dh_python3 compiles a package's public modules on install; those of a
 * namespace are private to it.  Its snippets are replaced by ours, which
 * name them (the review gate knows ours from the templates).
 */
static void
add_scripts(const struct dh_helper *h, const char *package,
            const struct modules *m)
{
	static const char *const scripts[] = { "postinst", "prerm" };
	struct dpkg_error err = DPKG_ERROR_INIT;
	char templates[4096], dirs[4096], path[512], *text;
	size_t n = 0, i;

	for (i = 0; i < m->n && n < sizeof(dirs); i++)
		n += (size_t)snprintf(dirs + n, sizeof(dirs) - n, "%s%s",
		                      i ? " " : "", m->dirs[i]);
	if (n >= sizeof(dirs))
		ohshit("too many Python module directories for %s", package);
	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	for (i = 0; i < 2; i++) {
		const struct template_subst subst[] = {
			{ "PACKAGE", package }, { "DIRS", dirs },
		};
		char name[64];

		snprintf(path, sizeof(path), "debian/%s.%s.debhelper", package,
		         scripts[i]);
		if (access(path, F_OK) == 0 &&
		    file_rewrite(path, snippet_drop_tool, "dh_python3",
		                 h->no_act))
			dh_helper_info(h, "%s: dh_python3's snippet replaced",
			               path);
		snprintf(name, sizeof(name), "%s-python", scripts[i]);
		text = snippet_template_expand(templates, name, scripts[i],
		                               subst, 2, &err);
		if (text == NULL)
			ohshit("%s", err.str);
		dh_helper_autoscript(h, package, scripts[i], text);
		free(text);
	}
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct modules m = { .n = 0 };
	struct python_launcher pl;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char pkgdir[512], datadir[sizeof(ns.path) + 8];
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	/* The packages of a source share the namespace and its modules. */
	for (i = 0; i < h.control.count; i++) {
		dh_helper_tmpdir(&h, h.control.packages[i].name, pkgdir,
		                 sizeof(pkgdir));
		find_modules(&ns, pkgdir, &m);
	}
	pl.dirs = (const char *const *)m.dirs;
	pl.n_dirs = m.n;
	snprintf(datadir, sizeof(datadir), "%s/share", ns.path);
	pl.datadir = datadir;
	pl.app = ns.app;
	for (i = 0; m.n > 0 && i < h.control.count; i++) {
		struct modules own = { .n = 0 };

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, pkgdir,
		                 sizeof(pkgdir));
		patch_launchers(&h, &ns, pkgdir, &pl);
		if (find_modules(&ns, pkgdir, &own) > 0)
			add_scripts(&h, h.control.packages[i].name, &own);
		while (own.n > 0)
			free(own.dirs[--own.n]);
	}
	while (m.n > 0)
		free(m.dirs[--m.n]);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
