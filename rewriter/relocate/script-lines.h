/*
 * script-lines.h: walking a script's text line by line, for the
 * launchers that add a line to a program (python-launcher.c,
 * module-launcher.c).
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

#endif
