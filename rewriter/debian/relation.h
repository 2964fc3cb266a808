/*
 * relation.h: relation fields (Depends, Build-Depends, Conflicts, ...)
 * located in their text, and renamed or pruned without refolding them.
 *
 * A field is a list of relations separated by commas; a relation is a list
 * of alternatives separated by '|'; an alternative is a package name with an
 * optional architecture qualifier, version restriction, architecture list
 * and build profiles.  Names are checked with libdpkg's pkg_name_is_illegal()
 * and versions with parseversion(), except where a substvar stands in.
 */
#ifndef DH_EXTRAS_RELATION_H
#define DH_EXTRAS_RELATION_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error-at.h"

#define RELATION_NO_COMMA ((size_t)-1)

struct relation_alt {
	size_t name, name_len;	/* offsets into the field text */
	bool substvar;		/* the name is or holds a ${substvar} */
	/* The version restriction, if any: its operator as written
	 * ("<<", ">=", ...; empty without one) and its version. */
	char op[3];
	size_t version, version_len;
};

struct relation {
	size_t start, end;	/* first byte, one past the last */
	size_t comma;		/* the comma that follows it, if any */
	int line;
	struct relation_alt *alts;
	int nalts;
};

struct relation_list {
	struct relation *items;
	int nitems;
};

/*
 * Parse the value of relation field FIELD: TEXT may span lines and hold
 * comment lines (a '#' after a newline); FIRST_LINE is the line of its first
 * byte in FILE, for errors.
 */
int relation_parse(struct relation_list *l, const char *text, size_t len,
                   const char *file, int first_line, const char *field,
                   struct dpkg_error *err);
void relation_list_free(struct relation_list *l);

/* The binary packages built by the source, by their names without "extras-". */
struct relation_owner {
	const char *const *names;
	int n;
};

/* Whether NAME (LEN bytes) is one of the source's own binaries, renamed or not. */
bool relation_is_own(const struct relation_owner *own, const char *name,
                     size_t len);

/* Called for each relation a rewrite drops. */
typedef void relation_drop_func(void *obj, const char *relation, int line);

/*
 * Rewrite the field text: with DROP_OTHERS, a relation naming any package
 * but the source's own binaries is removed together with its comma and,
 * when it stood alone on it, its line; the own ones stay as written (they
 * take their extras names at the package's edge, dh/dh-rename.h).  Returns the new text
 * (malloc'ed), or NULL when no relation is left.
 */
char *relation_rewrite(const char *text, size_t len,
                       const struct relation_list *l,
                       const struct relation_owner *own, bool drop_others,
                       relation_drop_func *dropped, void *obj);

/*
 * The steps relation_rewrite() took, one an iteration of its loops over
 * the text or the relations, summed over this thread's calls: what a test
 * reads to check the work grows linearly with the field.
 */
extern _Thread_local unsigned long relation_rewrite_steps;

#endif
