/*
 * deb822.h: deb822 stanzas (debian/control, .dsc) located in their text.
 *
 * libdpkg's parse_stanza() does the parsing; this module feeds it the text
 * without its comment lines and maps what it finds back to byte offsets in
 * the original, so that a rewrite can edit one field and keep every other
 * byte (comments, field order, folding) as the maintainer wrote it.
 */
#ifndef DH_EXTRAS_DEB822_H
#define DH_EXTRAS_DEB822_H

#include <stddef.h>

#include "base/error-at.h"

struct deb822_field {
	char *name;
	/* The value as libdpkg sees it: comment lines gone, ends trimmed. */
	char *value;
	int line;
	/* In the original text: the field name, the first byte after
	 * "Name:" and its blanks, and the end of its last line. */
	size_t start, value_start, end;
};

struct deb822_stanza {
	struct deb822_field *fields;
	int nfields;
	int line;
	size_t start, end;
};

struct deb822 {
	const char *filename;
	const char *text;
	size_t len;
	struct deb822_stanza *stanzas;
	int nstanzas;
};

/*
 * Parse TEXT (LEN bytes, kept by reference) read from FILENAME; lines
 * starting with '#' are comments, as dpkg-source allows in debian/control.
 */
int deb822_parse(struct deb822 *d, const char *filename, const char *text,
                 size_t len, struct dpkg_error *err);
void deb822_free(struct deb822 *d);

/* The field NAME (case-insensitive) of stanza S, or NULL. */
const struct deb822_field *deb822_find(const struct deb822_stanza *s,
                                       const char *name);

/*
 * The first field name S repeats (compared case-insensitively), or NULL:
 * libdpkg's parse_stanza() keeps a repeated field, a stanza must not.
 */
const char *deb822_duplicate_field(const struct deb822_stanza *s);

/* The line number of byte OFFSET of the original text. */
int deb822_line_of(const struct deb822 *d, size_t offset);

#endif
