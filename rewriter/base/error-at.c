/*
 * error-at.c: format the one-line errors the library reports.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error-at.h"

/* Whether byte C continues a UTF-8 sequence (a cut must not fall on it). */
static int
continues(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/*
 * MSG (LEN bytes) into OUT (SIZE bytes): whole when it fits, else its
 * start and its end around "...", cut between characters.  The end is
 * longer: it says what went wrong, the start names the file.
 */
static void
elide(const char *msg, size_t len, char *out, size_t size)
{
	size_t head, tail;

	if (len < size) {
		memcpy(out, msg, len + 1);
		return;
	}
	head = (size - 4) / 3;
	tail = size - 4 - head;
	while (head > 0 && continues(msg[head]))
		head--;
	while (tail > 0 && continues(msg[len - tail]))
		tail--;
	memcpy(out, msg, head);
	memcpy(out + head, "...", 3);
	memcpy(out + head + 3, msg + len - tail, tail);
	out[head + 3 + tail] = '\0';
}

/* ERR holds STR (malloc'ed) and nothing it held before. */
static int
put(struct dpkg_error *err, char *str)
{
	dpkg_error_destroy(err);
	err->type = DPKG_MSG_ERROR;
	err->str = str;
	return -1;
}

static int
out_of_memory(struct dpkg_error *err, const char *file)
{
	dpkg_error_destroy(err);
	return dpkg_put_error(err, "%s: out of memory", file);
}

int
put_error_at(struct dpkg_error *err, const char *file, int line,
             const char *fmt, ...)
{
	char *what = NULL, *msg = NULL, *out, *nl;
	va_list args;
	int n;

	va_start(args, fmt);
	n = vasprintf(&what, fmt, args);
	va_end(args);
	if (n < 0)
		return out_of_memory(err, file);
	if (line > 0)
		n = asprintf(&msg, "%s:%d: %s", file, line, what);
	else
		n = asprintf(&msg, "%s: %s", file, what);
	free(what);
	if (n < 0)
		return out_of_memory(err, file);
	/* One line, whatever the message carried in. */
	for (nl = msg; (nl = strchr(nl, '\n')) != NULL; nl++)
		*nl = ' ';
	if ((size_t)n < ERROR_AT_MAX)
		return put(err, msg);
	out = malloc(ERROR_AT_MAX);
	if (out == NULL) {
		free(msg);
		return out_of_memory(err, file);
	}
	elide(msg, (size_t)n, out, ERROR_AT_MAX);
	free(msg);
	return put(err, out);
}
