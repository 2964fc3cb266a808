/*
 * extras-store: the store's pipeline, from incoming signed uploads to a
 * published apt repository, with jobs in the registry.  The commands are
 * store/command.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/version.h"
#include "store/command.h"

#include "extras-store.usage.h"

static struct store_command cmd = { .store_dir = "." };

static const struct cmdinfo cmdinfos[] = {
	{ "store", 's', 1, NULL, &cmd.store_dir, NULL, 0, NULL, NULL },
	{ "registry", 'd', 1, NULL, &cmd.registry, NULL, 0, NULL, NULL },
	{ "keyring", 0, 1, NULL, &cmd.keyring, NULL, 0, NULL, NULL },
	{ "sign-with", 0, 1, NULL, &cmd.sign_with, NULL, 0, NULL, NULL },
	{ "codename", 0, 1, NULL, &cmd.codename, NULL, 0, NULL, NULL },
	{ "architectures", 0, 1, NULL, &cmd.architectures, NULL, 0, NULL,
	  NULL },
	{ "chroot", 0, 1, NULL, &cmd.chroot, NULL, 0, NULL, NULL },
	{ "chroot-suite", 0, 1, NULL, &cmd.chroot_suite, NULL, 0, NULL,
	  NULL },
	{ "worker", 0, 1, NULL, &cmd.worker, NULL, 0, NULL, NULL },
	{ "lease", 0, 1, NULL, &cmd.lease, NULL, 0, NULL, NULL },
	{ "once", 0, 0, &cmd.once, NULL, NULL, 1, NULL, NULL },
	{ "quiet", 'q', 0, &cmd.quiet, NULL, NULL, 1, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		store_command_fn *run;
	} commands[] = {
		{ "init", store_init_command },
		{ "queue", store_queue_command },
		{ "work", store_work_command },
		{ "run", store_run_command },
		{ "status", store_status_command },
	};
	const char *const *argp = (const char *const *)argv;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t i;
	int status;

	(void)argc;
	dpkg_program_init("extras-store");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (argp[0] == NULL)
		badusage("expected a command: init, queue, work, run or "
		         "status");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argp[0], commands[i].name) == 0)
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		badusage("unknown command '%s'", argp[0]);
	/* Options follow the command; the parser skips its name. */
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	status = commands[i].run(&cmd, argp, &err);
	if (status == STORE_USAGE)
		badusage("%s", err.str);
	if (status < 0) {
		fprintf(stderr, "extras-store: error: %s\n", err.str);
		exit(2);
	}
	if (fflush(stdout) != 0)
		ohshite("cannot write to standard output");
	dpkg_program_done();
	return status;
}
