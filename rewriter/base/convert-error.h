/*
 * convert-error.h: the one-line errors extras-convert reports on bad input.
 *
 * Library functions never exit: they fill a buffer with "FILE:LINE: message"
 * (or "FILE: message" when there is no line) and return -1, so the command
 * decides how to die and the tests can look at the text.
 */
#ifndef DH_EXTRAS_CONVERT_ERROR_H
#define DH_EXTRAS_CONVERT_ERROR_H

#include <stddef.h>

#define CONVERT_ERR_MAX 1024

struct convert_error {
	char msg[CONVERT_ERR_MAX];
};

/*
 * Fill ERR; LINE 0 means the file as a whole.  A message too long for
 * ERR keeps its start and its end around "...", never cut mid-character.
 * Always returns -1.
 */
int convert_fail(struct convert_error *err, const char *file, int line,
                 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
