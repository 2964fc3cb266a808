/*
 * report.h: what a rewrite did and what it could not do.
 *
 * Paths in a report are absolute, as the package will install them.  The
 * JSON shape (documented in extras-rewrite(1), --json):
 *
 *   { "app": S, "root": S, "namespace": S, "dry_run": B,
 *     "moves":     [ { "from": S, "to": S } ],
 *     "exports":   [ { "from": S, "to": S } ],
 *     "patches":   [ { "file": S, "kind": S, "line": N | "offset": N,
 *                      "old": S, "new": S } ],
 *     "unpatched": [ { "file": S, "offset": N, "string": S,
 *                      "reason": S } ],
 *     "accepted":  [ the same, for references declared acceptable ],
 *     "flags":     [ { "file": S, "flag": S } ],
 *     "summary":   { "moves": N, "exports": N, "patches": N,
 *                    "unpatched": N, "accepted": N, "flags": N,
 *                    "rpath_patchelf": N } }
 */
#ifndef DH_EXTRAS_REPORT_H
#define DH_EXTRAS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "namespace/namespace.h"

struct report_move {
	char *from, *to;
};

struct report_patch {
	char *file;
	const char *kind;	/* "text", "desktop-exec", "desktop-icon",
				   "desktop-mimetype" (new ""), "elf-string",
				   "rpath", "symlink" */
	long line;		/* text: 1-based line, else 0 */
	long long offset;	/* binary: byte offset, else -1 */
	char *old, *new;
};

struct report_unpatched {
	char *file;
	long long offset;
	char *string;
	char *reason;
};

struct report_flag {
	char *file;
	const char *flag;	/* "setuid", "setgid", "read-only", ... */
};

#define REPORT_ARRAY(type, name) \
	struct type *name; size_t n_##name, alloc_##name

struct report {
	REPORT_ARRAY(report_move, moves);
	REPORT_ARRAY(report_move, exports);
	REPORT_ARRAY(report_patch, patches);
	REPORT_ARRAY(report_unpatched, unpatched);
	/* Unpatched references the declaration accepts. */
	REPORT_ARRAY(report_unpatched, accepted);
	REPORT_ARRAY(report_flag, flags);
	/* RUNPATHs set by patchelf: the file had no room for them. */
	size_t n_rpath_patchelf;
	bool oom;
};

void report_init(struct report *r);
void report_free(struct report *r);

/* Each copies its strings; on allocation failure r->oom is set. */
void report_move(struct report *r, const char *from, const char *to);
void report_export(struct report *r, const char *from, const char *to);
void report_patch(struct report *r, const char *file, const char *kind,
                  long line, long long offset, const char *old,
                  size_t oldlen, const char *new);
void report_unpatched(struct report *r, const char *file, long long offset,
                      const char *string, size_t len, const char *reason);
void report_flag(struct report *r, const char *file, const char *flag);

/*
 * Move the unpatched references in files ACCEPTED lists (exact paths, or
 * "DIR/" for everything below DIR; "FILE STRING" for that reference
 * only) to the accepted ones.
 */
void report_accept(struct report *r, const char *const *accepted,
                   size_t n_accepted);

/* Move everything of FROM to the end of INTO (FROM ends empty). */
void report_take(struct report *into, struct report *from);

void report_write_json(const struct report *r,
                       const struct extras_namespace *ns, bool dry_run,
                       FILE *fp);
/* The short summary for people, and each unpatched reference. */
void report_write_summary(const struct report *r, const char *progname,
                          bool dry_run, FILE *fp);

#endif
