/*
 * fmt.c: bounded formatting that says when it truncated.
 */
#include <stdarg.h>
#include <stdio.h>

#include "base/fmt.h"

int
fmt_into(char *out, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(out, size, fmt, args);
	va_end(args);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}
