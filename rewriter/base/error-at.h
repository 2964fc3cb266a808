/*
 * error-at.h: the one-line errors the library reports on bad input.
 *
 * Library functions never exit: they fill libdpkg's struct dpkg_error with
 * "FILE:LINE: message" (or "FILE: message" when there is no line) and
 * return -1, so the command decides how to die and the tests can look at
 * the text.  Whoever owns a struct dpkg_error (DPKG_ERROR_INIT) destroys it
 * with dpkg_error_destroy().
 */
#ifndef DH_EXTRAS_ERROR_AT_H
#define DH_EXTRAS_ERROR_AT_H

#include <stddef.h>

#include <dpkg/error.h>

/* The longest message put_error_at() keeps, with its NUL. */
#define ERROR_AT_MAX 1024

/*
 * Fill ERR (replacing what it held); LINE 0 means the file as a whole.
 * A message longer than ERROR_AT_MAX keeps its start and its end around
 * "...", never cut mid-character.  Always returns -1.
 */
int put_error_at(struct dpkg_error *err, const char *file, int line,
                 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
