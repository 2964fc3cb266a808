/*
 * dh-modules.c: make the Perl, Ruby and Node programs of a namespace find
 * its modules (dh_extras_modules).
 */
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/error.h>

#include "base/file-rewrite.h"
#include "dh/dh-modules.h"
#include "dh/dh-programs.h"
#include "relocate/module-launcher.h"

#define MAX_DIRS 16

/*
 * Where Debian's build systems put each language's modules, relative to
 * /usr and so to the namespace, in the interpreter's own search order:
 * the architecture's directory before the shared one.
 */
static const char *const module_patterns[MODULE_LANGUAGES][4] = {
	[MODULE_PERL] = { "lib/*/perl5/*", "lib/perl5", "share/perl5", NULL },
	[MODULE_RUBY] = { "lib/*/ruby/vendor_ruby/*", "lib/ruby/vendor_ruby",
	                  NULL },
	[MODULE_NODE] = { "lib/*/nodejs", "lib/nodejs", "share/nodejs", NULL },
};

struct modules {
	char *dirs[MODULE_LANGUAGES][MAX_DIRS];	/* absolute, as installed */
	size_t n[MODULE_LANGUAGES];
};

/* What each package's walk needs. */
struct walk {
	const struct dh_helper *h;
	const struct extras_namespace *ns;
	struct modules m;	/* of every package of the source */
	struct module_launcher ml;
	struct dpkg_error *err;
};

static bool
is_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
modules_add(struct modules *m, enum module_language lang, const char *dir,
            struct dpkg_error *err)
{
	size_t i;

	for (i = 0; i < m->n[lang]; i++)
		if (strcmp(m->dirs[lang][i], dir) == 0)
			return 0;
	if (!module_launcher_dir_ok(dir))
		return dpkg_put_error(err, "%s module directory '%s' cannot "
		                      "be named in a program",
		                      module_language_name(lang), dir);
	if (m->n[lang] == MAX_DIRS)
		return dpkg_put_error(err, "more than %d %s module "
		                      "directories", MAX_DIRS,
		                      module_language_name(lang));
	m->dirs[lang][m->n[lang]] = strdup(dir);
	if (m->dirs[lang][m->n[lang]] == NULL)
		return dpkg_put_error(err, "out of memory");
	m->n[lang]++;
	return 0;
}

/* Add the module directories PKGDIR ships in the namespace to M. */
static int
find_modules(const struct extras_namespace *ns, const char *pkgdir,
             struct modules *m, struct dpkg_error *err)
{
	char base[1024], pattern[2048], dir[2048];
	int lang, rc = 0;
	size_t k, i;

	snprintf(base, sizeof(base), "%s/%s", pkgdir, ns->rel);
	for (lang = 0; rc == 0 && lang < MODULE_LANGUAGES; lang++) {
		for (k = 0; rc == 0 && module_patterns[lang][k]; k++) {
			glob_t g;

			snprintf(pattern, sizeof(pattern), "%s/%s", base,
			         module_patterns[lang][k]);
			if (glob(pattern, 0, NULL, &g) != 0)
				continue;
			for (i = 0; rc == 0 && i < g.gl_pathc; i++) {
				if (!is_dir(g.gl_pathv[i]))
					continue;
				snprintf(dir, sizeof(dir), "%s%s", ns->path,
				         g.gl_pathv[i] + strlen(base));
				rc = modules_add(m, lang, dir, err);
			}
			globfree(&g);
		}
	}
	return rc;
}

/* Give the program PATH (HEAD its first N bytes) its language's line. */
static int
patch_program(const char *path, const char *head, size_t n, void *ctx)
{
	struct walk *w = ctx;
	enum module_language lang = module_launcher_language(head, n);
	int rc;

	if (lang == MODULE_NONE || w->ml.n_dirs[lang] == 0)
		return 0;
	rc = file_rewrite(path, module_launcher_patch, &w->ml, w->h->no_act,
	                  w->err);
	if (rc > 0)
		dh_helper_info(w->h, "%s: finds its %s modules in the "
		               "namespace", path, module_language_name(lang));
	return rc < 0 ? -1 : 0;
}

static int
gather_modules(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ctx)
{
	struct walk *w = ctx;

	(void)h;
	(void)index;
	return find_modules(w->ns, pkgdir, &w->m, w->err);
}

static int
patch_package(const struct dh_helper *h, size_t index, const char *pkgdir,
              void *ctx)
{
	struct walk *w = ctx;

	(void)h;
	(void)index;
	return dh_programs_each(w->ns, pkgdir, patch_program, w, w->err);
}

int
dh_modules(const struct dh_helper *h, const struct extras_namespace *ns,
           struct dpkg_error *err)
{
	struct walk w = { .h = h, .ns = ns, .err = err };
	size_t total = 0;
	int lang, rc;

	/* The packages of a source share the namespace and its modules. */
	rc = dh_helper_each_package(h, DH_EACH_LISTED, gather_modules, &w);
	for (lang = 0; lang < MODULE_LANGUAGES; lang++) {
		w.ml.dirs[lang] = (const char *const *)w.m.dirs[lang];
		w.ml.n_dirs[lang] = w.m.n[lang];
		total += w.m.n[lang];
	}
	if (rc == 0 && total > 0)
		rc = dh_helper_each_package(h, DH_EACH_ACTED_ON,
		                            patch_package, &w);
	for (lang = 0; lang < MODULE_LANGUAGES; lang++)
		while (w.m.n[lang] > 0)
			free(w.m.dirs[lang][--w.m.n[lang]]);
	return rc;
}
