/*
 * dh-helper.c: the conventions every dh_extras_* helper shares with
 * debhelper's own helpers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/strings.h"
#include "dh/dh-helper.h"

/* Where an option came from: each source is treated as debhelper does. */
enum source { FROM_INTERNAL, FROM_ENV, FROM_ARGV, FROM_DASH_O };

struct selection {
	char **packages;	/* -p */
	size_t n_packages;
	char **excluded;	/* -N, and dh's internal narrowing */
	size_t n_excluded;
	bool arch, indep, remaining;
};

static void
push(char ***list, size_t *n, const char *s)
{
	char **v = realloc(*list, (*n + 1) * sizeof(char *));

	if (v == NULL)
		ohshit("out of memory");
	*list = v;
	v[(*n)++] = strdup(s);
}

static bool
env_true(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/*
 * Match ARG against the option NAME ("-p" short or "--package" long);
 * returns the value for options with one (from "=VALUE", the attached
 * rest of a short option, or the next argument), "" for flags, NULL when
 * ARG is not this option.
 */
static const char *
match_option(const char *name, bool has_arg, char **args, size_t n,
             size_t *i)
{
	const char *arg = args[*i];
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0)
		return NULL;
	if (arg[len] == '\0') {
		if (!has_arg)
			return "";
		if (*i + 1 >= n)
			badusage("option %s needs a value", name);
		return args[++*i];
	}
	if (!has_arg)
		return NULL;
	if (arg[len] == '=' && name[1] == '-')
		return arg + len + 1;
	if (name[1] != '-')
		return arg + len;
	return NULL;
}

/* Apply one option; returns false when it is unknown. */
static bool
apply_option(struct dh_helper *h, struct selection *sel,
             const struct dh_option *options, char **args, size_t n,
             size_t *i, enum source from)
{
	const char *v;
	size_t k;

	if ((v = match_option("-p", true, args, n, i)) ||
	    (v = match_option("--package", true, args, n, i))) {
		push(&sel->packages, &sel->n_packages, v);
	} else if ((v = match_option("-N", true, args, n, i)) ||
	           (v = match_option("--no-package", true, args, n, i))) {
		push(&sel->excluded, &sel->n_excluded, v);
	} else if (strcmp(args[*i], "-a") == 0 ||
	           strcmp(args[*i], "--arch") == 0 ||
	           strcmp(args[*i], "-s") == 0 ||
	           strcmp(args[*i], "--same-arch") == 0) {
		sel->arch = true;
	} else if (strcmp(args[*i], "-i") == 0 ||
	           strcmp(args[*i], "--indep") == 0) {
		sel->indep = true;
	} else if (strcmp(args[*i], "--remaining-packages") == 0) {
		sel->remaining = true;
	} else if (strcmp(args[*i], "-v") == 0 ||
	           strcmp(args[*i], "--verbose") == 0) {
		h->verbose = true;
	} else if (strcmp(args[*i], "--no-act") == 0) {
		h->no_act = true;
	} else if ((v = match_option("-P", true, args, n, i)) ||
	           (v = match_option("--tmpdir", true, args, n, i))) {
		free(h->tmpdir);
		h->tmpdir = strdup(v);
	} else if (strcmp(args[*i], "-n") == 0 ||
	           strcmp(args[*i], "--no-scripts") == 0 ||
	           strcmp(args[*i], "--noscripts") == 0) {
		h->no_scripts = true;
	} else if ((v = match_option("-X", true, args, n, i)) ||
	           (v = match_option("--exclude", true, args, n, i))) {
		push(&h->excluded, &h->n_excluded, v);
	} else if ((v = match_option("--mainpackage", true, args, n, i))) {
		/* Accepted for compatibility: no helper has a main package. */
	} else if (from != FROM_DASH_O &&
	           ((v = match_option("-O", true, args, n, i)) != NULL)) {
		char *one[1] = { (char *)v };
		size_t j = 0;

		/* dh passes -O options to every helper: ignore the others'. */
		apply_option(h, sel, options, one, 1, &j, FROM_DASH_O);
	} else {
		for (k = 0; options && options[k].name; k++) {
			v = match_option(options[k].name, options[k].has_arg, args, n,
			                 i);
			if (v == NULL)
				continue;
			if (options[k].has_arg)
				*options[k].value = v;
			else
				*options[k].flag = true;
			return true;
		}
		return false;
	}
	return true;
}

static void
parse_args(struct dh_helper *h, struct selection *sel,
           const struct dh_option *options, char **args, size_t n,
           enum source from)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (args[i][0] == '\0')
			continue;
		if (apply_option(h, sel, options, args, n, &i, from))
			continue;
		if (from == FROM_ARGV)
			badusage("unknown option or argument '%s'", args[i]);
		if (from == FROM_ENV)
			fprintf(stderr, "%s: warning: ignored unknown option '%s' "
			        "in DH_OPTIONS\n", h->name, args[i]);
	}
}

/* Split S at any of SEPS into a new array; returns its length. */
static size_t
split(char *s, const char *seps, char ***out)
{
	char **v = NULL;
	size_t n = 0;
	char *save, *tok;

	for (tok = strtok_r(s, seps, &save); tok;
	     tok = strtok_r(NULL, seps, &save)) {
		char **nv = realloc(v, (n + 1) * sizeof(char *));

		if (nv == NULL)
			ohshit("out of memory");
		v = nv;
		v[n++] = tok;
	}
	*out = v;
	return n;
}

static bool
in_list(char **list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

/* Whether debian/PKG.debhelper.log records a run of NAME. */
static bool
logged(const char *package, const char *name)
{
	char path[512], line[256];
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "debian/%s.debhelper.log", package);
	fp = fopen(path, "r");
	if (fp == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		found = strcmp(line, name) == 0;
	}
	fclose(fp);
	return found;
}

static void
select_packages(struct dh_helper *h, struct selection *sel,
                char **internal, size_t n_internal)
{
	struct dh_control *c = &h->control;
	size_t i;

	h->act = calloc(c->count ? c->count : 1, sizeof(bool));
	h->n_act = c->count;
	for (i = 0; i < sel->n_packages; i++) {
		size_t k;

		for (k = 0; k < c->count; k++)
			if (strcmp(c->packages[k].name, sel->packages[i]) == 0)
				break;
		if (k == c->count)
			ohshit("requested unknown package %s via -p/--package",
			       sel->packages[i]);
	}
	for (i = 0; i < c->count; i++) {
		const struct dh_package *p = &c->packages[i];
		bool want;

		if (sel->n_packages || sel->arch || sel->indep)
			want = in_list(sel->packages, sel->n_packages, p->name) ||
			       (sel->arch && !p->arch_all) ||
			       (sel->indep && p->arch_all);
		else
			want = true;
		if (n_internal > 0 && !in_list(internal, n_internal, p->name))
			want = false;
		if (in_list(sel->excluded, sel->n_excluded, p->name) ||
		    !p->builds)
			want = false;
		if (want && sel->remaining && logged(p->name, h->name))
			want = false;
		h->act[i] = want;
	}
}

void
dh_helper_init(struct dh_helper *h, const char *name, int argc, char **argv,
               const struct dh_option *options, const char *usage)
{
	struct selection sel = { 0 };
	struct selection internal_sel = { 0 };
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *env, **args;
	size_t n, i;

	memset(h, 0, sizeof(*h));
	h->name = name;
	dpkg_program_init(name);
	for (i = 1; i < (size_t)argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			exit(0);
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("%s %s\n", name, DH_EXTRAS_VERSION);
			exit(0);
		}
	}
	h->verbose = env_true("DH_VERBOSE");
	h->quiet = env_true("DH_QUIET");
	h->no_act = env_true("DH_NO_ACT");

	/* dh's narrowing for override targets: the packages it names. */
	env = getenv("DH_INTERNAL_OPTIONS");
	if (env != NULL) {
		char *copy = strdup(env);

		n = split(copy, "\x1e", &args);
		parse_args(h, &internal_sel, options, args, n, FROM_INTERNAL);
		free(args);
		free(copy);
	}
	env = getenv("DH_OPTIONS");
	if (env != NULL) {
		/* Kept: the values of the helper's own options point into it. */
		h->env_options = strdup(env);
		n = split(h->env_options, " \t\n", &args);
		parse_args(h, &sel, options, args, n, FROM_ENV);
		free(args);
	}
	parse_args(h, &sel, options, argv + 1, (size_t)argc - 1, FROM_ARGV);

	if (dh_control_read(&h->control, "debian/control", &err) < 0)
		ohshit("%s", err.str);
	if (internal_sel.n_packages || internal_sel.arch || internal_sel.indep) {
		/* Expand dh's -a/-i into names, as parseopts does. */
		for (i = 0; i < h->control.count; i++) {
			const struct dh_package *p = &h->control.packages[i];

			if (!in_list(internal_sel.packages, internal_sel.n_packages,
			             p->name) &&
			    !(internal_sel.arch && !p->arch_all) &&
			    !(internal_sel.indep && p->arch_all))
				push(&sel.excluded, &sel.n_excluded, p->name);
		}
	}
	for (i = 0; i < internal_sel.n_excluded; i++)
		push(&sel.excluded, &sel.n_excluded, internal_sel.excluded[i]);
	select_packages(h, &sel, NULL, 0);

	strings_free(sel.packages, sel.n_packages);
	strings_free(sel.excluded, sel.n_excluded);
	strings_free(internal_sel.packages, internal_sel.n_packages);
	strings_free(internal_sel.excluded, internal_sel.n_excluded);
}

void
dh_helper_done(struct dh_helper *h)
{
	dh_control_free(&h->control);
	free(h->act);
	free(h->tmpdir);
	strings_free(h->excluded, h->n_excluded);
	free(h->env_options);
	dpkg_program_done();
}

const char *
dh_helper_tmpdir(const struct dh_helper *h, const char *package, char *buf,
                 size_t size)
{
	size_t i;

	for (i = 0; h->tmpdir != NULL && i < h->control.count; i++)
		if (h->act[i] && strcmp(h->control.packages[i].name, package) == 0) {
			snprintf(buf, size, "%s", h->tmpdir);
			return buf;
		}
	snprintf(buf, size, "debian/%s", package);
	return buf;
}

int
dh_helper_each_package(const struct dh_helper *h, enum dh_each which,
                       dh_package_fn *fn, void *ctx)
{
	size_t i;

	for (i = 0; i < h->control.count; i++) {
		const struct dh_package *p = &h->control.packages[i];
		char pkgdir[512];
		int rc;

		if ((which == DH_EACH_ACTED_ON && !h->act[i]) ||
		    (which == DH_EACH_BUILT && !p->builds))
			continue;
		dh_helper_tmpdir(h, p->name, pkgdir, sizeof(pkgdir));
		rc = fn(h, i, pkgdir, ctx);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void
dh_helper_show(const struct dh_helper *h, const char *fmt, ...)
{
	va_list args;

	if (!h->verbose && !h->no_act)
		return;
	fputc('\t', stdout);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	fputc('\n', stdout);
	fflush(stdout);
}

void
dh_helper_info(const struct dh_helper *h, const char *fmt, ...)
{
	va_list args;

	if (h->quiet)
		return;
	printf("%s: ", h->name);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	fputc('\n', stdout);
	fflush(stdout);
}
