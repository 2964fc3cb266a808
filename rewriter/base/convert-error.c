/*
 * convert-error.c: format the one-line errors of extras-convert.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/convert-error.h"

int
convert_fail(struct convert_error *err, const char *file, int line,
             const char *fmt, ...)
{
	char what[CONVERT_ERR_MAX / 2];
	va_list args;
	char *nl;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	/* One line, whatever the message carried in. */
	while ((nl = strchr(what, '\n')) != NULL)
		*nl = ' ';
	if (line > 0)
		snprintf(err->msg, sizeof(err->msg), "%s:%d: %s", file, line, what);
	else
		snprintf(err->msg, sizeof(err->msg), "%s: %s", file, what);
	return -1;
}
