/*
 * extras-rewrite: move a staged package tree into its namespace and patch
 * the paths that moved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "namespace/declaration.h"
#include "base/output.h"
#include "base/version.h"
#include "relocate/relocate.h"
#include "relocate/report.h"

#include "extras-rewrite.usage.h"

#define PROGNAME "extras-rewrite"

static struct relocate_options opt;
static const char *app, *root, *json;
static int dry_run, links_replace;

static void
add_accepted(const struct cmdinfo *ci, const char *value)
{
	static const char **accepted;
	const char *why = declaration_check_unpatched_path(value);

	(void)ci;
	if (why != NULL)
		badusage("--accept '%s' %s", value, why);
	accepted = m_realloc(accepted, (opt.n_accepted + 1) *
	                     sizeof(*accepted));
	accepted[opt.n_accepted++] = value;
	opt.accepted = accepted;
}

static void
set_jobs(const struct cmdinfo *ci, const char *value)
{
	char *end;
	long n = strtol(value, &end, 10);

	(void)ci;
	if (*end != '\0' || n < 1 || n > 16)
		badusage("--jobs needs a number from 1 to 16");
	opt.jobs = (int)n;
}

static const struct cmdinfo cmdinfos[] = {
	{ "app", 0, 1, NULL, &app, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &root, NULL, 0, NULL, NULL },
	{ "json", 0, 1, NULL, &json, NULL, 0, NULL, NULL },
	{ "dry-run", 0, 0, &dry_run, NULL, NULL, 1, NULL, NULL },
	{ "accept", 0, 1, NULL, NULL, add_accepted, 0, NULL, NULL },
	{ "jobs", 0, 1, NULL, NULL, set_jobs, 0, NULL, NULL },
	{ "links-replace", 0, 0, &links_replace, NULL, NULL, 1, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

struct json_report {
	const struct report *report;
	const struct extras_namespace *ns;
	bool dry_run;
};

static int
write_json(FILE *fp, const void *data)
{
	const struct json_report *j = data;

	report_write_json(j->report, j->ns, j->dry_run, fp);
	return ferror(fp) ? -1 : 0;
}

int
main(int argc, char **argv)
{
	const char *const *argp = (const char *const *)argv;
	struct extras_namespace ns;
	const char *why;
	struct report report;
	enum relocate_status status;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int ntrees;

	(void)argc;
	dpkg_program_init(PROGNAME);
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	opt.dry_run = dry_run;
	opt.links_replace = links_replace;
	if (app == NULL)
		badusage("--app is required");
	if (*argp == NULL)
		badusage("no package tree given");
	for (ntrees = 0; argp[ntrees] != NULL; ntrees++)
		;
	why = namespace_init(&ns, app, root);
	if (why != NULL)
		ohshit("%s '%s' %s", namespace_check_app(app) ? "app id" : "root",
		       namespace_check_app(app) ? app : root, why);

	report_init(&report);
	status = relocate_trees(&opt, argp, ntrees, &ns, &report, &err);
	if (status == RELOCATE_BAD_INPUT || status == RELOCATE_FAILED)
		ohshit("%s", err.str);
	if (json != NULL &&
	    output_replace(json, write_json, &(struct json_report){
	                   &report, &ns, opt.dry_run }, &err) < 0)
		ohshit("%s", err.str);
	report_write_summary(&report, PROGNAME, opt.dry_run, stderr);
	report_free(&report);
	free((void *)opt.accepted);
	dpkg_program_done();
	return status == RELOCATE_UNPATCHED ? 1 : 0;
}
