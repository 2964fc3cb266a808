/*
 * extras-convert: turn a Debian source package into an extras source
 * package, in place (DIR) or from a .dsc into OUTDIR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/version.h"
#include "convert/convert.h"
#include "base/output.h"
#include "convert/convert-dsc.h"
#include "convert/orig-tarball.h"

#include "extras-convert.usage.h"

static struct convert_options opt;
static const char *json, *outdir;
static int quiet;

static const struct cmdinfo cmdinfos[] = {
	{ "privileges", 0, 1, NULL, &opt.privileges, NULL, 0, NULL, NULL },
	{ "bus-names", 0, 1, NULL, &opt.bus_names, NULL, 0, NULL, NULL },
	{ "ids", 0, 1, NULL, &opt.ids, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &opt.root, NULL, 0, NULL, NULL },
	{ "json", 0, 1, NULL, &json, NULL, 0, NULL, NULL },
	{ "identity", 0, 1, NULL, &opt.identity_file, NULL, 0, NULL, NULL },
	{ "output", 'o', 1, NULL, &outdir, NULL, 0, NULL, NULL },
	{ "quiet", 'q', 0, &quiet, NULL, NULL, 1, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

struct json_report {
	const struct convert_result *res;
	const struct convert_plan *plan;
};

static int
write_json(FILE *fp, const void *data)
{
	const struct json_report *j = data;

	convert_report_json(fp, j->res, j->plan);
	return ferror(fp) ? -1 : 0;
}

int
main(int argc, char **argv)
{
	const char *const *argp = (const char *const *)argv;
	struct identity identity = { NULL };
	struct convert_plan plan;
	struct convert_result res;
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *input;
	size_t len;
	int ret;

	(void)argc;
	dpkg_program_init("extras-convert");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (argp[0] == NULL || argp[1] != NULL)
		badusage("expected one DIR or FILE.dsc");
	input = argp[0];
	if (opt.identity_file != NULL) {
		if (identity_read(&identity, opt.identity_file, &err) < 0)
			ohshit("%s", err.str);
		opt.identity = &identity;
	}
	len = strlen(input);
	if (len > 4 && strcmp(input + len - 4, ".dsc") == 0) {
		if (outdir == NULL)
			badusage("a .dsc needs -o OUTDIR");
		ret = convert_dsc(input, outdir, &opt, &plan, &res, &err);
	} else {
		if (outdir != NULL)
			badusage("-o OUTDIR is only for a .dsc");
		ret = convert_tree(input, &opt, &plan, &res, &err);
		if (ret == 0)
			ret = orig_tarball_link(&plan, res.app, res.version,
			                        &err);
	}
	if (ret < 0)
		ohshit("%s", err.str);
	/* The summary goes to stderr when stdout carries the JSON. */
	if (!quiet)
		convert_plan_print(&plan, json && strcmp(json, "-") == 0 ?
		                   stderr : stdout);
	if (json && output_replace(json, write_json,
	                           &(struct json_report){ &res, &plan },
	                           &err) < 0)
		ohshit("%s", err.str);
	/* Any other source has at least its Source: renamed. */
	if (!quiet && plan.nops == 0)
		fprintf(json && strcmp(json, "-") == 0 ? stderr : stdout,
		        "extras-convert: %s %s is already an extras package: "
		        "nothing changed\n", res.source, res.version);
	else if (!quiet)
		fprintf(json && strcmp(json, "-") == 0 ? stderr : stdout,
		        "extras-convert: %s %s converted\n", res.source,
		        res.version);
	convert_result_free(&res);
	convert_plan_free(&plan);
	identity_free(&identity);
	dpkg_error_destroy(&err);
	dpkg_program_done();
	return 0;
}
