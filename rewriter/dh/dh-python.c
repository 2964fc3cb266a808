/*
 * dh-python.c: make the Python programs of a namespace find its modules,
 * and byte-compile them into the package (dh_extras_python).
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
#include <dpkg/command.h>
#include <dpkg/error.h>
#include <dpkg/subproc.h>

#include "base/dpkg-catch.h"
#include "base/error-at.h"
#include "base/file-rewrite.h"
#include "dh/dh-programs.h"
#include "dh/dh-python.h"
#include "relocate/python-launcher.h"

#define MAX_DIRS 16

struct modules {
	char *dirs[MAX_DIRS];	/* absolute, as installed */
	size_t n;
};

/* What each package's walk needs. */
struct python {
	const struct dh_helper *h;
	const struct extras_namespace *ns;
	struct modules m;	/* of every package of the source */
	struct python_launcher pl;
	struct dpkg_error *err;
};

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
modules_add(struct modules *m, const char *dir, struct dpkg_error *err)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strcmp(m->dirs[i], dir) == 0)
			return 0;
	if (m->n == MAX_DIRS)
		return dpkg_put_error(err, "more than %d Python module "
		                      "directories", MAX_DIRS);
	m->dirs[m->n] = strdup(dir);
	if (m->dirs[m->n] == NULL)
		return dpkg_put_error(err, "out of memory");
	m->n++;
	return 0;
}

static void
modules_free(struct modules *m)
{
	while (m->n > 0)
		free(m->dirs[--m->n]);
}

/*
 * Add the module directories PKGDIR ships in the namespace to M; returns
 * how many it ships, or -1 with ERR.
 */
static int
find_modules(const struct extras_namespace *ns, const char *pkgdir,
             struct modules *m, struct dpkg_error *err)
{
	static const char *const kinds[] = { "dist-packages", "site-packages" };
	char lib[1024], path[2048];
	struct dirent *d;
	int found = 0;
	size_t k;
	DIR *dp;

	snprintf(lib, sizeof(lib), "%s/%s/lib", pkgdir, ns->rel);
	dp = opendir(lib);
	if (dp == NULL)
		return 0;
	while (found >= 0 && (d = readdir(dp)) != NULL) {
		if (fnmatch("python3*", d->d_name, 0) != 0)
			continue;
		for (k = 0; found >= 0 && k < 2; k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", lib, d->d_name,
			         kinds[k]);
			if (!is_dir(path))
				continue;
			snprintf(path, sizeof(path), "%s/lib/%s/%s", ns->path,
			         d->d_name, kinds[k]);
			found = modules_add(m, path, err) < 0 ? -1 : found + 1;
		}
	}
	closedir(dp);
	return found;
}

/* Give the script PATH (HEAD its first N bytes) its sys.path line. */
static int
patch_launcher(const char *path, const char *head, size_t n, void *ctx)
{
	struct python *p = ctx;
	int rc;

	if (n < 2 || memcmp(head, "#!", 2) != 0)
		return 0;
	rc = file_rewrite(path, python_launcher_patch, &p->pl, p->h->no_act,
	                  p->err);
	if (rc > 0)
		dh_helper_info(p->h, "%s: finds its modules in the namespace",
		               path);
	return rc < 0 ? -1 : 0;
}

/* libdpkg's subproc_reap() reports through ohshit(). */
static void
run_compileall(void *cmd)
{
	pid_t pid = subproc_fork();

	if (pid == 0)
		command_exec(cmd);
	subproc_reap(pid, "python3 -m compileall", 0);
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
static int
compile_modules(const struct dh_helper *h, const char *pkgdir,
                const struct modules *m, struct dpkg_error *err)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		char msg[ERROR_AT_MAX];
		struct command cmd;
		char dir[2048];
		int rc;

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
		rc = dpkg_catch(run_compileall, &cmd, msg, sizeof(msg));
		command_destroy(&cmd);
		if (rc < 0)
			return dpkg_put_error(err, "%s", msg);
	}
	return 0;
}

static int
gather_modules(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ctx)
{
	struct python *p = ctx;

	(void)h;
	(void)index;
	return find_modules(p->ns, pkgdir, &p->m, p->err) < 0 ? -1 : 0;
}

static int
python_package(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ctx)
{
	struct python *p = ctx;
	struct modules own = { .n = 0 };
	int rc;

	(void)index;
	if (dh_programs_each(p->ns, pkgdir, patch_launcher, p, p->err) < 0)
		return -1;
	rc = find_modules(p->ns, pkgdir, &own, p->err);
	if (rc > 0)
		rc = compile_modules(h, pkgdir, &own, p->err);
	modules_free(&own);
	return rc < 0 ? -1 : 0;
}

int
dh_python(const struct dh_helper *h, const struct extras_namespace *ns,
          struct dpkg_error *err)
{
	struct python p = { .h = h, .ns = ns, .err = err };
	int rc;

	/* The packages of a source share the namespace and its modules. */
	rc = dh_helper_each_package(h, DH_EACH_LISTED, gather_modules, &p);
	if (rc == 0 && p.m.n > 0) {
		p.pl.dirs = (const char *const *)p.m.dirs;
		p.pl.n_dirs = p.m.n;
		p.pl.app = ns->app;
		rc = dh_helper_each_package(h, DH_EACH_ACTED_ON,
		                            python_package, &p);
	}
	modules_free(&p.m);
	return rc;
}
