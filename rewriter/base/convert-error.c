/*
 * convert-error.c: format the one-line errors of extras-convert.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/convert-error.h"

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

int
convert_fail(struct convert_error *err, const char *file, int line,
             const char *fmt, ...)
{
	char *what = NULL, *msg = NULL, *nl;
	va_list args;
	int n;

	va_start(args, fmt);
	n = vasprintf(&what, fmt, args);
	va_end(args);
	if (n < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", file);
		return -1;
	}
	if (line > 0)
		n = asprintf(&msg, "%s:%d: %s", file, line, what);
	else
		n = asprintf(&msg, "%s: %s", file, what);
	free(what);
	if (n < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", file);
		return -1;
	}
	/* One line, whatever the message carried in. */
	for (nl = msg; (nl = strchr(nl, '\n')) != NULL; nl++)
		*nl = ' ';
	elide(msg, (size_t)n, err->msg, sizeof(err->msg));
	free(msg);
	return -1;
}
