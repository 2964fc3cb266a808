/*
 * script-lines.h: walking a script's text line by line, for the
 * launchers that add a line to a program (python-launcher.c,
 * module-launcher.c, launcher.c).
 */
#ifndef REWRITER_RELOCATE_SCRIPT_LINES_H
#define REWRITER_RELOCATE_SCRIPT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The offset of the line after the one at POS (LEN at the end). */
static inline size_t
next_line(const char *buf, size_t len, size_t pos)
{
	const char *nl = memchr(buf + pos, '\n', len - pos);

	return nl ? (size_t)(nl - buf) + 1 : len;
}

/* Whether the text at POS starts with S. */
static inline bool
starts(const char *buf, size_t len, size_t pos, const char *s)
{
	size_t n = strlen(s);

	return len - pos >= n && memcmp(buf + pos, s, n) == 0;
}

static inline bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The command a "#!" line at the start of BUF runs, without its
 * directory, past "env" and env's options and assignments ("#!/usr/bin/env
 * -S perl -w" runs "perl"): its first byte, its length in *N; NULL when
 * BUF starts with no "#!" line naming one.
 */
static inline const char *
shebang_command(const char *buf, size_t len, size_t *n)
{
	size_t end, pos = 2, word;
	bool env = false;

	if (len < 2 || memcmp(buf, "#!", 2) != 0)
		return NULL;
	end = next_line(buf, len, 0);
	if (end > 0 && buf[end - 1] == '\n')
		end--;
	for (;;) {
		const char *slash;

		while (pos < end && is_blank(buf[pos]))
			pos++;
		word = pos;
		while (pos < end && !is_blank(buf[pos]))
			pos++;
		if (pos == word)
			return NULL;
		if (env && (buf[word] == '-' ||
		            memchr(buf + word, '=', pos - word) != NULL))
			continue;
		slash = memrchr(buf + word, '/', pos - word);
		if (slash != NULL)
			word = (size_t)(slash - buf) + 1;
		*n = pos - word;
		if (!env && *n == 3 && memcmp(buf + word, "env", 3) == 0) {
			env = true;
			continue;
		}
		return buf + word;
	}
}

/* Whether WORD (N bytes) is NAME followed by nothing but a version. */
static inline bool
names_command(const char *word, size_t n, const char *name)
{
	size_t k = strlen(name), i;

	if (n < k || memcmp(word, name, k) != 0)
		return false;
	for (i = k; i < n; i++)
		if (!(word[i] >= '0' && word[i] <= '9') && word[i] != '.')
			return false;
	return true;
}

#endif
