/*
 * strings.c: the library's lists of strings.
 */
#include <stdlib.h>

#include "base/strings.h"

void
strings_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
