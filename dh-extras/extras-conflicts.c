/*
 * extras-conflicts: check packages' names and files against every indexed
 * archive and every app's claim; record claims; accept signed uploads
 * from registered uploaders; grant apps reserved privileges.  The
 * commands are conflicts/command.c's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/output.h"
#include "base/version.h"
#include "conflicts/command.h"
#include "namespace/namespace.h"

#include "extras-conflicts.usage.h"

static struct conflicts_command cmd;
static const char *json_path, *identity_path;

static const struct cmdinfo cmdinfos[] = {
	{ "db", 'd', 1, NULL, &cmd.db, NULL, 0, NULL, NULL },
	{ "archive", 0, 1, NULL, &cmd.archive, NULL, 0, NULL, NULL },
	{ "owner", 0, 1, NULL, &cmd.owner, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &cmd.root, NULL, 0, NULL, NULL },
	{ "json", 0, 1, NULL, &json_path, NULL, 0, NULL, NULL },
	{ "keyring", 0, 1, NULL, &cmd.keyring, NULL, 0, NULL, NULL },
	{ "fingerprint", 0, 1, NULL, &cmd.fingerprint, NULL, 0, NULL, NULL },
	{ "identity", 0, 1, NULL, &identity_path, NULL, 0, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

/* What a command wrote to a memory stream, for output_replace(). */
struct written {
	char *buf;
	size_t len;
};

static int
write_buffer(FILE *fp, const void *data)
{
	const struct written *w = data;

	return fwrite(w->buf, 1, w->len, fp) == w->len ? 0 : -1;
}

/* A stream in memory when PATH is given, else none. */
static FILE *
memory_stream(const char *path, struct written *w)
{
	FILE *fp;

	if (path == NULL)
		return NULL;
	fp = open_memstream(&w->buf, &w->len);
	if (fp == NULL)
		ohshite("cannot make a buffer for %s", path);
	return fp;
}

/* What FP took, written to PATH atomically (nothing written, no file). */
static void
replace_with(const char *path, FILE *fp, struct written *w)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	if (fp == NULL)
		return;
	if (fclose(fp) != 0)
		ohshite("cannot write %s", path);
	if (w->len > 0 && output_replace(path, write_buffer, w, &err) < 0)
		ohshit("%s", err.str);
	free(w->buf);
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		conflicts_command_fn *run;
	} commands[] = {
		{ "index", conflicts_index_command },
		{ "check", conflicts_check_command },
		{ "claim", conflicts_claim_command },
		{ "release", conflicts_release_command },
		{ "list", conflicts_list_command },
		{ "accept", conflicts_accept_command },
		{ "uploader", conflicts_uploader_command },
		{ "grant", conflicts_grant_command },
		{ "revoke", conflicts_revoke_command },
		{ "grants", conflicts_grants_command },
	};
	const char *const *argp = (const char *const *)argv;
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct written json = { NULL, 0 }, identity = { NULL, 0 };
	size_t i;
	int status;

	(void)argc;
	dpkg_program_init("extras-conflicts");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (argp[0] == NULL)
		badusage("expected a command: index, check, claim, release, "
		         "list, accept, uploader, grant, revoke or grants");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argp[0], commands[i].name) == 0)
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		badusage("unknown command '%s'", argp[0]);
	/* Options follow the command; the parser skips its name. */
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	/* And the subcommand's: "uploader add -d DB ...". */
	if (commands[i].run == conflicts_uploader_command && argp[0] != NULL) {
		cmd.subcommand = argp[0];
		dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	}
	if (cmd.root != NULL && namespace_check_root(cmd.root) != NULL)
		badusage("--root '%s' %s", cmd.root,
		         namespace_check_root(cmd.root));
	/* claim reads the identity; accept writes it. */
	cmd.identity = identity_path;
	cmd.json = memory_stream(json_path, &json);
	if (commands[i].run == conflicts_accept_command)
		cmd.identity_out = memory_stream(identity_path, &identity);
	status = commands[i].run(&cmd, argp, &err);
	if (status == CONFLICTS_USAGE)
		badusage("%s", err.str);
	if (status < 0)
		ohshit("%s", err.str);
	replace_with(json_path, cmd.json, &json);
	replace_with(identity_path, cmd.identity_out, &identity);
	if (fflush(stdout) != 0)
		ohshite("cannot write to standard output");
	dpkg_program_done();
	return status;
}
