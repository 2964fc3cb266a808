/*
 * convert-plan.h: what a conversion will change, decided before anything
 * is changed.
 *
 * Every step of extras-convert reads the tree and adds to the plan (files
 * to write, rename or remove, and report notes); only when every step has
 * accepted the tree is the plan applied, each file replaced atomically.  A
 * refused tree is left exactly as it was.
 */
#ifndef DH_EXTRAS_CONVERT_PLAN_H
#define DH_EXTRAS_CONVERT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/error-at.h"

/* Anything bigger under debian/ is not a packaging file. */
#define CONVERT_FILE_MAX (4 * 1024 * 1024)

enum convert_op_kind {
	CONVERT_WRITE,
	CONVERT_RENAME,
	CONVERT_REMOVE,
};

struct convert_op {
	enum convert_op_kind kind;
	char *path;		/* relative to the tree */
	char *to;		/* CONVERT_RENAME */
	char *data;		/* CONVERT_WRITE */
	size_t len;
	mode_t mode;
};

/* One line of the report: "FILE:LINE: what". */
struct convert_note {
	char *file;
	int line;
	char *what;
};

struct convert_plan {
	const char *dir;
	struct convert_op *ops;
	int nops;
	struct convert_note *notes;
	int nnotes;
};

void convert_plan_init(struct convert_plan *p, const char *dir);
void convert_plan_free(struct convert_plan *p);

void convert_plan_write(struct convert_plan *p, const char *path,
                        const char *data, size_t len, mode_t mode);
void convert_plan_rename(struct convert_plan *p, const char *from,
                         const char *to);
void convert_plan_remove(struct convert_plan *p, const char *path);
void convert_plan_note(struct convert_plan *p, const char *file, int line,
                       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether the plan already renames or removes PATH. */
bool convert_plan_touches(const struct convert_plan *p, const char *path);

/*
 * Read PATH (relative to the tree): a regular file, not a symbolic link,
 * at most CONVERT_FILE_MAX bytes, NUL-terminated.  Returns 0, 1 when it
 * does not exist (only if MAY_BE_ABSENT), or -1.
 */
int convert_read(const struct convert_plan *p, const char *path, char **data,
                 size_t *len, mode_t *mode, bool may_be_absent,
                 struct dpkg_error *err);

/* Apply the plan to the tree: writes, then renames, then removals. */
int convert_plan_apply(struct convert_plan *p, struct dpkg_error *err);

/* Print the notes, one "FILE:LINE: what" a line. */
void convert_plan_print(const struct convert_plan *p, FILE *fp);

#endif
