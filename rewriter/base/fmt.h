/*
 * fmt.h: bounded formatting that says when it truncated.
 */
#ifndef DH_EXTRAS_FMT_H
#define DH_EXTRAS_FMT_H

#include <stddef.h>

/*
 * snprintf into OUT; returns 0, or -1 when the result did not fit (OUT
 * then holds the truncated text).  Paths built with it are checked, so a
 * long name never silently becomes another file's name.
 */
int fmt_into(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
