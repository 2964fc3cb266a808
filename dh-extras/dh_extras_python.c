/*
 * dh_extras_python: make the Python programs of a namespace find its
 * modules, and byte-compile them into the package (run by dh after
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
#include <dpkg/command.h>
#include <dpkg/subproc.h>

#include "base/datadir.h"
#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "base/file-rewrite.h"
#include "relocate/python-launcher.h"

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
	struct dpkg_error err = DPKG_ERROR_INIT;
	char dir[1024], path[2048];
	struct dirent *d;
	size_t i;
	DIR *dp;
	int rc;

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
			rc = file_rewrite(path, python_launcher_patch, pl,
			                  h->no_act, &err);
			if (rc < 0)
				ohshit("%s", err.str);
			if (rc > 0)
				dh_helper_info(h, "%s: finds its modules in "
				               "the namespace", path);
		}
		closedir(dp);
	}
}

/*
 * dh_python3 compiles a package's public modules on install, as root, from
 * its postinst; an extras package runs no such script (its modules are
 * private, and a root process compiling files of the namespace would run
 * what a link there leads to).  The modules are compiled here instead,
 * into the package: hash-based bytecode (PEP 552), so that the files do
 * not depend on the times dpkg gives the sources, unchecked because only
 * dpkg changes those.  A Python of another version at run time ignores
 * them and compiles in memory: slower to start, never wrong.  Without
 * python3 in the build, nothing is compiled, with a note.
 */
static void
compile_modules(const struct dh_helper *h, const char *pkgdir,
                const struct modules *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct command cmd;
		char dir[2048];
		pid_t pid;

		snprintf(dir, sizeof(dir), "%s%s", pkgdir, m->dirs[i]);
		dh_helper_show(h, "python3 -m compileall -q -f "
		               "--invalidation-mode unchecked-hash -d %s %s",
		               m->dirs[i], dir);
		if (h->no_act)
			continue;
		if (access("/usr/bin/python3", X_OK) != 0) {
			dh_helper_info(h, "%s: not byte-compiled: no python3 "
			               "in the build (add python3 to "
			               "Build-Depends)", dir);
			continue;
		}
		command_init(&cmd, "/usr/bin/python3", "python3");
		command_add_args(&cmd, "python3", "-m", "compileall", "-q",
		                 "-f", "--invalidation-mode", "unchecked-hash",
		                 "-d", m->dirs[i], dir, NULL);
		pid = subproc_fork();
		if (pid == 0)
			command_exec(&cmd);
		subproc_reap(pid, "python3 -m compileall", 0);
		command_destroy(&cmd);
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
	char pkgdir[512];
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
	pl.app = ns.app;
	for (i = 0; m.n > 0 && i < h.control.count; i++) {
		struct modules own = { .n = 0 };

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, pkgdir,
		                 sizeof(pkgdir));
		patch_launchers(&h, &ns, pkgdir, &pl);
		if (find_modules(&ns, pkgdir, &own) > 0)
			compile_modules(&h, pkgdir, &own);
		while (own.n > 0)
			free(own.dirs[--own.n]);
	}
	while (m.n > 0)
		free(m.dirs[--m.n]);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
