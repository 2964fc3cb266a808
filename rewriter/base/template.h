/*
 * template.h: the files of templates/, AppArmor knowledge kept as data.
 *
 * A template starts with a header of comment lines, some of them fields
 * ("# Class: common", continued on lines starting "#  "), for the reader
 * and for the catalogue; the body after it is profile text holding
 * placeholders @NAME@ that template_expand fills in.
 */
#ifndef DH_EXTRAS_TEMPLATE_H
#define DH_EXTRAS_TEMPLATE_H

#include <stddef.h>

#include <dpkg/error.h>

#define TEMPLATE_FILE_MAX 65536

struct template_field {
	char *key;
	char *value;
};

struct template {
	char *path;
	char *text;
	/* Where the body starts in text, and on which line (from 1). */
	const char *body;
	unsigned long body_line;
	struct template_field *fields;
	size_t n_fields;
};

/* What a placeholder @TOKEN@ becomes. */
struct template_subst {
	const char *token;
	const char *value;
};

/*
 * Load the template at PATH.  Returns 0, 1 when there is no such file
 * (ERR untouched), or -1 with "PATH:LINE: message" in ERR.
 */
int template_load(struct template *t, const char *path,
                  struct dpkg_error *err);

void template_free(struct template *t);

/* The value of header field KEY, or NULL. */
const char *template_field(const struct template *t, const char *key);

/*
 * Expand the placeholders of line LINE (LEN bytes, no newline) of T into a
 * new string.  A placeholder missing from SUBST is an error: a template
 * must not ship a rule with a hole in it.  Values are inserted as given;
 * the caller checks them (profile_check_word).
 */
char *template_expand_line(const struct template *t, unsigned long lineno,
                           const char *line, size_t len,
                           const struct template_subst *subst, size_t n,
                           struct dpkg_error *err);

/*
 * A list of templates/ (icons/standard-names, exports/url-handlers ...):
 * one entry a line, blank lines and lines starting with '#' skipped.
 * Loads the lines of PATH into a new array *LINES of *N strings.  Returns
 * 0, or -1 with "PATH: message" in ERR (a missing list is an error: a
 * store without its list would judge nothing).  The lines are released
 * with strings_free (base/strings.h).
 */
int template_list_load(const char *path, char ***lines, size_t *n,
                       struct dpkg_error *err);

#endif
