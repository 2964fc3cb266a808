/*
 * maintscript.h: what an author's maintainer script did, for the report
 * extras-convert gives when it drops the script.
 *
 * An extras package runs no maintainer script of its author's (the only
 * ones it carries are generated: maintscript-generate.h), so nothing here
 * decides what runs: the walk only names, one note a statement, what the
 * author loses.  A script is parsed by a real shell parser
 * (shell-syntax.h) and every statement read on its syntax tree.  System
 * integration (integration.h) gives a note saying what the package loses
 * and how an extras package gets it back, and its alternatives give the
 * .links lines that take their place; so do statements that only handle
 * the Debian package's own files outside the namespace (a migration from
 * its old versions, guarded by a test that such a path exists; rm, mv,
 * chmod ... of such paths) and branches whose condition is false whatever
 * dpkg passes (a variable the script sets once, tested).  What the walk
 * understands and keeps quiet about: set, case on "$1" with dpkg's
 * actions, if/elif/else and && || lists of tests, assignments of
 * written-out values, functions, echo and printf, umask, true, :, exit
 * and return, redirections to /dev/null and #DEBHELPER#.  Anything else
 * (unknown commands, command substitution, eval, pipes, loops, writing
 * files) is "unknown": the converter warns that the app may have needed
 * it.
 */
#ifndef DH_EXTRAS_MAINTSCRIPT_H
#define DH_EXTRAS_MAINTSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "scripts/integration.h"

struct maintscript_options {
	const struct integration *db;
	/* The binary package the script belongs to (renamed): reports. */
	const char *package;
	/* The Debian package's own names, source and binaries, without
	 * "extras-": the converter drops what only handles their files
	 * outside the namespace (old state to migrate, ownership, set-id
	 * bits), each with a report line.  None: nothing is dropped so. */
	const char *const *old_names;
	size_t nold_names;
};

struct maintscript_note {
	int line;
	char *text;
};

struct maintscript_verdict {
	/* What has no extras meaning: "`COMMAND`: why". */
	struct maintscript_note *unknown;
	size_t nunknown;
	/* What the converter drops: "dropped system integration `COMMAND`:
	 * LOSES: INSTEAD", one per integration command. */
	struct maintscript_note *dropped;
	size_t ndropped;
	/* The .links lines that take the place of dropped commands
	 * (update-alternatives' links), "SOURCE DESTINATION". */
	char **links;
	long *link_ranks;	/* each one's rank (integration_links()) */
	size_t nlinks;
};

/*
 * Judge the maintainer script TEXT (LEN bytes).  Returns 0 with V filled
 * in (empty lists: nothing to drop or refuse), or -1 with a one-line
 * message in ERR and its line in *LINE: not shell (line 1), a syntax
 * error, or shfmt could not be run (*LINE 0).
 */
int maintscript_read(const char *text, size_t len,
                      const struct maintscript_options *o,
                      struct maintscript_verdict *v, int *line,
                      struct dpkg_error *err);

void maintscript_verdict_free(struct maintscript_verdict *v);

#endif
