/*
 * extras-rewrite: move a staged package tree into its namespace and patch
 * the paths that moved.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "namespace/declaration.h"
#include "base/output.h"
#include "relocate/relocate.h"
#include "relocate/report.h"

#include "extras-rewrite.usage.h"

#define PROGNAME "extras-rewrite"

static void
usage(void)
{
	fputs(help_text, stdout);
}

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
	static const struct option longopts[] = {
		{ "app", required_argument, NULL, 'a' },
		{ "root", required_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "accept", required_argument, NULL, 'A' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "links-replace", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct relocate_options opt = { 0 };
	struct extras_namespace ns;
	const char *app = NULL, *root = NULL, *why;
	struct report report;
	enum relocate_status status;
	const char *json = NULL;
	const char **accepted = NULL;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int c;

	dpkg_program_init(PROGNAME);
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': app = optarg; break;
		case 'r': root = optarg; break;
		case 'j': json = optarg; break;
		case 'n': opt.dry_run = true; break;
		case 'L': opt.links_replace = true; break;
		case 'A': {
			const char *why = declaration_check_unpatched_path(optarg);
			const char **v;

			if (why != NULL)
				badusage("--accept '%s' %s", optarg, why);
			v = realloc(accepted, (opt.n_accepted + 1) * sizeof(*v));
			if (v == NULL)
				ohshit("out of memory");
			accepted = v;
			accepted[opt.n_accepted++] = optarg;
			opt.accepted = accepted;
			break;
		}
		case 'J': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (*end != '\0' || n < 1 || n > 16)
				badusage("--jobs needs a number from 1 to 16");
			opt.jobs = (int)n;
			break;
		}
		case 'h': usage(); exit(0);
		case 'V': printf("%s %s\n", PROGNAME, DH_EXTRAS_VERSION); exit(0);
		default: badusage("unknown option");
		}
	}
	if (app == NULL)
		badusage("--app is required");
	if (optind >= argc)
		badusage("no package tree given");
	why = namespace_init(&ns, app, root);
	if (why != NULL)
		ohshit("%s '%s' %s", namespace_check_app(app) ? "app id" : "root",
		       namespace_check_app(app) ? app : root, why);

	report_init(&report);
	status = relocate_trees(&opt, argv + optind, argc - optind, &ns,
	                        &report, &err);
	if (status == RELOCATE_BAD_INPUT || status == RELOCATE_FAILED)
		ohshit("%s", err.str);
	if (json != NULL &&
	    output_replace(json, write_json, &(struct json_report){
	                   &report, &ns, opt.dry_run }, &err) < 0)
		ohshit("%s", err.str);
	report_write_summary(&report, PROGNAME, opt.dry_run, stderr);
	report_free(&report);
	free(accepted);
	dpkg_program_done();
	return status == RELOCATE_UNPATCHED ? 1 : 0;
}
