/*
 * command.h: the commands of extras-conflicts, one function each: index
 * Contents files, check packages, claim and release an app's names, list
 * the claims, accept a signed upload, manage uploaders, grant apps
 * reserved privileges.
 *
 * What a user reads goes to standard output and standard error as each
 * step is taken; the report (--json) and the identity (--identity) are
 * written to the streams the caller gives, which replaces its files
 * atomically.  Each returns the command's exit status (0, or 1 for a
 * clash, a refusal, something not found), CONFLICTS_FAILED with ERR for
 * bad input or a failure, CONFLICTS_USAGE with ERR for a wrong call.
 */
#ifndef DH_EXTRAS_CONFLICTS_COMMAND_H
#define DH_EXTRAS_CONFLICTS_COMMAND_H

#include <stdio.h>

#include <dpkg/error.h>

#define CONFLICTS_FAILED (-1)
#define CONFLICTS_USAGE (-2)

struct conflicts_command {
	/* The options, as given (NULL: not given). */
	const char *db, *archive, *owner, *root, *keyring, *fingerprint;
	const char *identity;	/* read by claim, written by accept */
	const char *subcommand;	/* uploader's: add, remove, list */
	/* Where the JSON report goes; NULL: none. */
	FILE *json;
	/* Where accept writes an accepted upload's identity; NULL: none. */
	FILE *identity_out;
};

typedef int conflicts_command_fn(struct conflicts_command *c,
                                 const char *const *args,
                                 struct dpkg_error *err);

conflicts_command_fn conflicts_index_command, conflicts_check_command,
	conflicts_claim_command, conflicts_release_command,
	conflicts_list_command, conflicts_accept_command,
	conflicts_uploader_command, conflicts_grant_command,
	conflicts_revoke_command, conflicts_grants_command;

#endif
