/*
 * relocate.h: move staged package trees into their namespace and patch
 * the references to what moved.
 *
 * The whole run is planned before anything is written: every problem in
 * the input (two entries that would land on the same path, a name the
 * rewriter reserves, an unreadable entry) is found first and nothing is
 * changed.  Then entries are moved with rename(2), symlinks retargeted,
 * and files whose content changes replaced atomically, keeping modes,
 * owners, mtimes and hardlinks.  Contents are searched on several threads.
 *
 * Replacing is atomic against interruption (a temporary beside the file,
 * then rename(2)), not against power loss: there is no fsync(2), as
 * debhelper has none, since a staged tree is rebuilt rather than
 * recovered.
 *
 * Several trees (the binary packages of one source) are rewritten in one
 * run so that a reference in one package to a file of another is found.
 * The map of old to new paths is derived from what the namespaces hold
 * afterwards, not from what moved in this run, so a second run finds and
 * reports the same references and changes nothing.
 */
#ifndef DH_EXTRAS_RELOCATE_H
#define DH_EXTRAS_RELOCATE_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "namespace/namespace.h"
#include "relocate/report.h"

struct relocate_options {
	bool dry_run;		/* plan and report; write nothing */
	int jobs;		/* threads searching contents; 0: one a CPU */
	/* Files (absolute; "DIR/" for all below DIR) whose unpatched
	 * references are accepted: reported as such, not failing. */
	const char *const *accepted;
	size_t n_accepted;
	/* Files whose staged path ("DIR/usr/...") contains any of these
	 * (debhelper's -X): moved with the rest, their contents neither
	 * searched nor patched. */
	const char *const *excluded;
	size_t n_excluded;
	/* A symlink that moves onto a file or symlink the namespace holds
	 * replaces it, as ln -sf replaces what lies at a link's path: the
	 * links dh_link makes after the relocation (dh_extras_links). */
	bool links_replace;
	/* MIME types no .desktop file's MimeType= may claim: dropped and
	 * reported (patch_context's unclaimable). */
	const char *const *unclaimable;
	size_t n_unclaimable;
};

enum relocate_status {
	RELOCATE_DONE = 0,
	RELOCATE_UNPATCHED = 1,	/* references remain: see the report */
	RELOCATE_BAD_INPUT = 2,	/* ERR says why; nothing was written */
	RELOCATE_FAILED = 3,	/* a system call failed midway */
};

/* The trees DIRS moved into NS, the namespace the caller built. */
enum relocate_status relocate_trees(const struct relocate_options *opt,
                                    const char *const *dirs, int ndirs,
                                    const struct extras_namespace *ns,
                                    struct report *report,
                                    struct dpkg_error *err);

#endif
