/*
 * dh_extras_modules: make the Perl, Ruby and Node programs of a namespace
 * find its modules (run by dh after dh_extras_relocate).
 */
#include <dirent.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "base/file-rewrite.h"
#include "relocate/module-launcher.h"

#include "dh_extras_modules.usage.h"

#define NAME "dh_extras_modules"
#define MAX_DIRS 16

static const char *const program_dirs[] = {
	"bin", "sbin", "games", "libexec", NULL,
};

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

static bool
is_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void
modules_add(struct modules *m, enum module_language lang, const char *dir)
{
	size_t i;

	for (i = 0; i < m->n[lang]; i++)
		if (strcmp(m->dirs[lang][i], dir) == 0)
			return;
	if (!module_launcher_dir_ok(dir))
		ohshit("%s module directory '%s' cannot be named in a program",
		       module_language_name(lang), dir);
	if (m->n[lang] == MAX_DIRS)
		ohshit("more than %d %s module directories", MAX_DIRS,
		       module_language_name(lang));
	m->dirs[lang][m->n[lang]] = strdup(dir);
	if (m->dirs[lang][m->n[lang]++] == NULL)
		ohshit("out of memory");
}

/* Add the module directories PKGDIR ships in the namespace to M. */
static void
find_modules(const struct extras_namespace *ns, const char *pkgdir,
             struct modules *m)
{
	char base[1024], pattern[2048], dir[2048];
	int lang;
	size_t k, i;

	snprintf(base, sizeof(base), "%s/%s", pkgdir, ns->rel);
	for (lang = 0; lang < MODULE_LANGUAGES; lang++) {
		for (k = 0; module_patterns[lang][k]; k++) {
			glob_t g;

			snprintf(pattern, sizeof(pattern), "%s/%s", base,
			         module_patterns[lang][k]);
			if (glob(pattern, 0, NULL, &g) != 0)
				continue;
			for (i = 0; i < g.gl_pathc; i++) {
				if (!is_dir(g.gl_pathv[i]))
					continue;
				snprintf(dir, sizeof(dir), "%s%s", ns->path,
				         g.gl_pathv[i] + strlen(base));
				modules_add(m, lang, dir);
			}
			globfree(&g);
		}
	}
}

/* The language of the program at PATH, a regular file, or MODULE_NONE. */
static enum module_language
program_language(const char *path)
{
	char head[512];
	struct stat st;
	size_t n;
	FILE *fp;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return MODULE_NONE;
	fp = fopen(path, "r");
	if (fp == NULL)
		ohshite("cannot open %s", path);
	n = fread(head, 1, sizeof(head), fp);
	fclose(fp);
	return module_launcher_language(head, n);
}

static void
patch_programs(const struct dh_helper *h, const struct extras_namespace *ns,
               const char *pkgdir, struct module_launcher *ml)
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
			enum module_language lang;

			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			lang = program_language(path);
			if (lang == MODULE_NONE || ml->n_dirs[lang] == 0)
				continue;
			rc = file_rewrite(path, module_launcher_patch, ml,
			                  h->no_act, &err);
			if (rc < 0)
				ohshit("%s", err.str);
			if (rc > 0)
				dh_helper_info(h, "%s: finds its %s modules in "
				               "the namespace", path,
				               module_language_name(lang));
		}
		closedir(dp);
	}
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct modules m;
	struct module_launcher ml;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char pkgdir[512];
	size_t i, total = 0;
	int lang;

	memset(&m, 0, sizeof(m));
	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	/* The packages of a source share the namespace and its modules. */
	for (i = 0; i < h.control.count; i++) {
		dh_helper_tmpdir(&h, h.control.packages[i].name, pkgdir,
		                 sizeof(pkgdir));
		find_modules(&ns, pkgdir, &m);
	}
	for (lang = 0; lang < MODULE_LANGUAGES; lang++) {
		ml.dirs[lang] = (const char *const *)m.dirs[lang];
		ml.n_dirs[lang] = m.n[lang];
		total += m.n[lang];
	}
	for (i = 0; total > 0 && i < h.control.count; i++) {
		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, pkgdir,
		                 sizeof(pkgdir));
		patch_programs(&h, &ns, pkgdir, &ml);
	}
	for (lang = 0; lang < MODULE_LANGUAGES; lang++)
		while (m.n[lang] > 0)
			free(m.dirs[lang][--m.n[lang]]);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
