/*
 * extras-convert: turn a Debian source package into an extras source
 * package, in place (DIR) or from a .dsc into OUTDIR.
 */
#include <getopt.h>
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

static void
usage(FILE *fp)
{
	fputs(help_text, fp);
}

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
	static const struct option longopts[] = {
		{ "privileges", required_argument, NULL, 'P' },
		{ "root", required_argument, NULL, 'R' },
		{ "json", required_argument, NULL, 'J' },
		{ "identity", required_argument, NULL, 'I' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct convert_options opt = { .privileges = NULL };
	struct identity identity = { NULL };
	struct convert_plan plan;
	struct convert_result res;
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *json = NULL, *outdir = NULL, *input;
	bool quiet = false;
	size_t len;
	int c, ret;

	dpkg_program_init("extras-convert");
	while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'P': opt.privileges = optarg; break;
		case 'R': opt.root = optarg; break;
		case 'J': json = optarg; break;
		case 'I': opt.identity_file = optarg; break;
		case 'o': outdir = optarg; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': version_print(); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1)
		badusage("expected one DIR or FILE.dsc");
	input = argv[optind];
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
