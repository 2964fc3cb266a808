/*
 * desktop-entry.h: .desktop and D-Bus .service files as the desktop reads
 * them.
 *
 * A key file is read line by line as GLib's GKeyFile reads it: leading
 * blanks skipped, "#" comments, "[Group]" headers, "Key[locale]=value"
 * with blanks around "=" dropped, a trailing CR dropped.  Each line is
 * looked at once: linear in the size of the file.
 *
 * An Exec= value is split into its words as its reader splits it: a
 * .desktop file's as the Desktop Entry Specification says (the string
 * escapes \s \n \t \r \\ first, then double-quoted arguments with \" \`
 * \$ \\ inside, field codes %f %U ... outside quotes, reserved characters
 * only inside quotes); a D-Bus service's as dbus-daemon's shell-like
 * parser does (blanks separate, '...', "..." and \ quote, # at the start
 * of a word a comment).  Each word says whether it was written plainly:
 * a word the two readers, or two versions of one, could take apart
 * differently (partly quoted, holding a reserved character or a field
 * code) is marked, for the caller to refuse where it matters.
 */
#ifndef DH_EXTRAS_DESKTOP_ENTRY_H
#define DH_EXTRAS_DESKTOP_ENTRY_H

#include <stdbool.h>
#include <stddef.h>

enum desktop_line_kind {
	DESKTOP_LINE_BLANK,	/* blank or a comment */
	DESKTOP_LINE_GROUP,	/* "[Group]" */
	DESKTOP_LINE_KEY,	/* "Key=value", "Key[locale]=value" */
	DESKTOP_LINE_INVALID,	/* anything else: readers ignore or refuse it */
};

struct desktop_line {
	enum desktop_line_kind kind;
	unsigned long lineno;
	/* The group the line is in (its own name for a GROUP line), or
	 * length 0 before the first group. */
	const char *group;
	size_t group_len;
	/* KEY lines: the key without its locale, the locale ("" for none)
	 * and the value; none NUL-terminated. */
	const char *key, *locale, *value;
	size_t key_len, locale_len, value_len;
};

struct desktop_reader {
	const char *p, *end;
	unsigned long lineno;
	const char *group;
	size_t group_len;
};

void desktop_reader_init(struct desktop_reader *rd, const char *buf,
                         size_t len);

/* The next line into L; false at the end of the buffer. */
bool desktop_reader_next(struct desktop_reader *rd, struct desktop_line *l);

/* Whether L is key KEY (any locale), or is in group GROUP. */
bool desktop_line_is_key(const struct desktop_line *l, const char *key);
bool desktop_line_in_group(const struct desktop_line *l, const char *group);

enum exec_syntax {
	EXEC_DESKTOP,	/* the Desktop Entry Specification's Exec key */
	EXEC_DBUS,	/* a D-Bus service file's Exec key */
};

struct exec_word {
	char *text;	/* unquoted, NUL-terminated */
	/* Why the word is not plain (NULL when it is): "partly quoted",
	 * "holds a field code", "holds the reserved character '|' outside
	 * quotes", ... */
	const char *unplain;
};

struct exec_words {
	struct exec_word *words;
	size_t n;
};

/*
 * Split VALUE (LEN bytes) into W.  Returns 0, or -1 with the reason in
 * *WHY ("an unterminated quote", "an invalid escape sequence") when the
 * reader would refuse the line; W is then empty.  Free with
 * exec_words_free either way.
 */
int exec_split(enum exec_syntax syntax, const char *value, size_t len,
               struct exec_words *w, const char **why);
void exec_words_free(struct exec_words *w);

/*
 * The items of a string list value (MimeType=a;b;), string escapes and
 * "\;" undone, one call of EACH(ITEM, CTX) an item, empty items skipped.
 */
void desktop_string_list(const char *value, size_t len,
                         void (*each)(const char *item, void *ctx),
                         void *ctx);

#endif
