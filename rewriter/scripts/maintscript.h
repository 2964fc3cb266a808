/*
 * maintscript.h: the one grammar of maintainer scripts, for extras-convert
 * and for the review gate.
 *
 * A script is parsed by a real shell parser (shell-syntax.h) and every
 * statement judged on its syntax tree.  Understood and kept: set -e/-u/-x,
 * case on "$1" with dpkg's actions, if/elif/else and && || lists whose
 * conditions are tests ([ ], test, command -v, which), assignments of
 * written-out values, functions defined and then called, echo and printf
 * of written-out words, umask, true, :, exit and return with a number,
 * redirections to /dev/null and between descriptors, and #DEBHELPER#.
 * Commands whose only effect is system integration (integration.h) are
 * dropped by the converter, each with a report line, and refused by the
 * gate.  So are, by the converter, statements that only handle the Debian
 * package's own files outside the namespace (a migration from its old
 * versions, guarded by a test that such a path exists; rm, mv, chmod ...
 * of such paths) and branches whose condition is false whatever dpkg
 * passes (a variable the script sets once, tested).  Anything else is refused with its line: unknown commands,
 * command substitution, eval, pipes, loops, here-documents, writing
 * files, variables never set.
 *
 * The postinst of a package shipping an AppArmor profile must load it:
 * the snippet dh_extras_apparmor adds (at #DEBHELPER#) must be reached
 * when dpkg runs "postinst configure", whatever the statements before it
 * do; else the app would run unconfined.
 */
#ifndef DH_EXTRAS_MAINTSCRIPT_H
#define DH_EXTRAS_MAINTSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "scripts/integration.h"

enum maintscript_mode {
	/* extras-convert: drop system integration, with a report. */
	MAINTSCRIPT_CONVERT,
	/* The review gate: refuse it. */
	MAINTSCRIPT_GATE,
};

struct maintscript_options {
	enum maintscript_mode mode;
	const struct integration *db;
	/* The binary package the script belongs to (renamed): reports. */
	const char *package;
	/* The Debian package's own names, source and binaries, without
	 * "extras-": the converter drops what only handles their files
	 * outside the namespace (old state to migrate, ownership, set-id
	 * bits), each with a report line.  None: nothing is dropped so. */
	const char *const *old_names;
	size_t nold_names;
	/* Lines where the snippet loading the profile runs: the converter
	 * gives its #DEBHELPER# lines, the gate the line of the block
	 * dh_extras_apparmor added (which it replaces by a ":" statement).
	 * With MUST_LOAD, one of them must be reached on "configure". */
	const int *sites;
	size_t nsites;
	bool must_load;
};

struct maintscript_note {
	int line;
	char *text;
};

/* Bytes START..END of the script, replaced by REPLACEMENT. */
struct maintscript_edit {
	size_t start, end;
	const char *replacement;
};

struct maintscript_verdict {
	/* What cannot be kept: "`COMMAND`: why; what to do". */
	struct maintscript_note *refused;
	size_t nrefused;
	/* What the converter drops: "dropped system integration `COMMAND`:
	 * LOSES: INSTEAD", one per integration command. */
	struct maintscript_note *dropped;
	size_t ndropped;
	struct maintscript_edit *edits;
	size_t nedits;
	/* The .links lines that take the place of dropped commands
	 * (update-alternatives' links), "SOURCE DESTINATION". */
	char **links;
	long *link_ranks;	/* each one's rank (integration_links()) */
	size_t nlinks;
	/* Whether a kept statement prints something outside the "*)" arm
	 * of a case: else a script that lost its integration is empty. */
	bool effect;
	/* With MUST_LOAD, why the profile may not be loaded, or NULL;
	 * UNCONFINED_LINE is the line to change (0: the whole script). */
	char *unconfined;
	int unconfined_line;
};

/*
 * Judge the maintainer script TEXT (LEN bytes).  Returns 0 with V filled
 * in (empty lists: nothing to drop or refuse), or -1 with a one-line
 * message in ERR and its line in *LINE: not shell (line 1), a syntax
 * error, or shfmt could not be run (*LINE 0).
 */
int maintscript_judge(const char *text, size_t len,
                      const struct maintscript_options *o,
                      struct maintscript_verdict *v, int *line,
                      struct dpkg_error *err);

/* TEXT with the verdict's edits applied: a new string. */
char *maintscript_apply(const char *text, size_t len,
                        const struct maintscript_verdict *v);

void maintscript_verdict_free(struct maintscript_verdict *v);

/* The lines of TEXT that are "#DEBHELPER#" (blanks around it allowed). */
size_t maintscript_debhelper_lines(const char *text, int **lines);

#endif
