/*
 * extras-profile: print the AppArmor profile of an app from its
 * declaration (debian/extras.yaml).  The work is apparmor/command.c's.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "apparmor/command.h"
#include "base/version.h"

#include "extras-profile.usage.h"

static struct profile_command cmd;
static int list;

static void
add_executable(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	cmd.executables = m_realloc(cmd.executables, (cmd.n_executables + 1) *
	                            sizeof(*cmd.executables));
	cmd.executables[cmd.n_executables++] = value;
}

static void
add_grant(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	cmd.granted = m_realloc(cmd.granted, (cmd.n_granted + 1) *
	                        sizeof(*cmd.granted));
	cmd.granted[cmd.n_granted++] = value;
}

static const struct cmdinfo cmdinfos[] = {
	{ "app", 0, 1, NULL, &cmd.app, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &cmd.root, NULL, 0, NULL, NULL },
	{ "allow-reserved", 0, 0, &cmd.allow_reserved, NULL, NULL, 1, NULL,
	  NULL },
	{ "grant", 0, 1, NULL, NULL, add_grant, 0, NULL, NULL },
	{ "executable", 0, 1, NULL, NULL, add_executable, 0, NULL, NULL },
	{ "list-privileges", 0, 0, &list, NULL, NULL, 1, NULL, NULL },
	{ "script", 0, 1, NULL, &cmd.script, NULL, 0, NULL, NULL },
	{ "package", 0, 1, NULL, &cmd.package, NULL, 0, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

int
main(int argc, char **argv)
{
	const char *const *argp = (const char *const *)argv;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int status;

	(void)argc;
	dpkg_program_init("extras-profile");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (list) {
		if (*argp != NULL)
			badusage("--list-privileges takes no argument");
		if (profile_list_command(&err) < 0)
			ohshit("%s", err.str);
		return 0;
	}
	if (argp[0] == NULL || argp[1] != NULL)
		badusage("expected one DECLARATION.yaml");
	status = profile_print_command(&cmd, argp[0], &err);
	if (status == PROFILE_USAGE)
		badusage("%s", err.str);
	if (status < 0)
		ohshit("%s", err.str);
	free(cmd.executables);
	free(cmd.granted);
	dpkg_program_done();
	return 0;
}
