/*
 * extras-review: the store's review gate on built packages: accept or
 * refuse each .deb (and each .deb a .changes lists) with reasons.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/version.h"
#include "base/output.h"
#include "review/review.h"
#include "debian/debfile.h"

#include "extras-review.usage.h"

#define NAME "extras-review"

static const char *json_path;
static const char **previous;
static size_t nprevious;
static const char *root = EXTRAS_DEFAULT_ROOT;
static const char *distribution;
static int allow_reserved;
static int list_members;
static const char *identity_path;

static void
add_previous(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	previous = m_realloc(previous, (nprevious + 1) * sizeof(*previous));
	previous[nprevious++] = value;
}

static const char **granted;
static size_t n_granted;

static void
add_grant(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	granted = m_realloc(granted, (n_granted + 1) * sizeof(*granted));
	granted[n_granted++] = value;
}

static const struct cmdinfo cmdinfos[] = {
	{ "json", 0, 1, NULL, &json_path, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &root, NULL, 0, NULL, NULL },
	{ "distribution", 0, 1, NULL, &distribution, NULL, 0, NULL, NULL },
	{ "previous", 0, 1, NULL, NULL, add_previous, 0, NULL, NULL },
	{ "identity", 0, 1, NULL, &identity_path, NULL, 0, NULL, NULL },
	{ "allow-reserved", 0, 0, &allow_reserved, NULL, NULL, 1, NULL, NULL },
	{ "grant", 0, 1, NULL, NULL, add_grant, 0, NULL, NULL },
	{ "members", 0, 0, &list_members, NULL, NULL, 1, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

static int
write_json(FILE *fp, const void *data)
{
	review_write_json(data, fp);
	return ferror(fp) ? -1 : 0;
}

/* --members: what the gate reads of each package, nothing judged. */
static int
print_members(const char *const *files)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	for (; *files; files++) {
		struct debfile deb;

		if (debfile_read(&deb, *files, &err) < 0)
			ohshit("%s", err.str);
		debfile_print_members(&deb, stdout);
		debfile_destroy(&deb);
	}
	m_output(stdout, "<standard output>");
	return 0;
}

int
main(int argc, char **argv)
{
	const char *const *argp = (const char *const *)argv;
	struct review_options opt = { 0 };
	struct identity identity = { NULL };
	struct review r;
	FILE *out;
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *why;
	size_t i;

	(void)argc;
	dpkg_program_init(NAME);
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (*argp == NULL)
		badusage("expected FILE.deb or FILE.changes");
	if (list_members)
		return print_members(argp);
	if ((why = namespace_check_root(root)) != NULL)
		badusage("--root '%s' %s", root, why);
	opt.root = root;
	if (distribution != NULL &&
	    (*distribution == '\0' ||
	     strcspn(distribution, " \t\n") != strlen(distribution)))
		badusage("--distribution '%s' is not one word", distribution);
	opt.distribution = distribution;
	opt.allow_reserved = allow_reserved;
	opt.granted = granted;
	opt.n_granted = n_granted;
	opt.compile = true;
	if (identity_path != NULL) {
		if (identity_read(&identity, identity_path, &err) < 0)
			ohshit("%s", err.str);
		opt.identity = &identity;
	}
	review_init(&r, &opt);
	for (; *argp; argp++) {
		int rc;

		if (str_match_end(*argp, ".changes"))
			rc = review_add_changes(&r, *argp, &err);
		else
			rc = review_add_deb(&r, *argp, &err);
		if (rc < 0)
			ohshit("%s", err.str);
	}
	for (i = 0; i < nprevious; i++)
		if (review_add_previous(&r, previous[i], &err) < 0)
			ohshit("%s", err.str);
	free(previous);
	if (review_run(&r, &err) < 0)
		ohshit("%s", err.str);
	if (json_path != NULL &&
	    output_replace(json_path, write_json, &r, &err) < 0)
		ohshit("%s", err.str);
	out = json_path != NULL && strcmp(json_path, "-") == 0 ? stderr :
	      stdout;
	review_print(&r, "", out);
	for (i = 0; i < r.npackages; i++) {
		const struct review_package *p = &r.packages[i];

		if (p->nproblems == 0)
			fprintf(out, NAME ": %s: %s %s accepted\n", p->where,
			        p->deb.package, p->deb.version);
		else
			fprintf(out, NAME ": %s: %s %s refused (%zu problem%s)\n",
			        p->where, p->deb.package, p->deb.version,
			        p->nproblems, p->nproblems == 1 ? "" : "s");
	}
	i = r.nproblems;
	review_free(&r);
	identity_free(&identity);
	dpkg_program_done();
	return i > 0 ? 1 : 0;
}
