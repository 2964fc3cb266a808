/*
 * path.c: relations between paths as strings.
 */
#include <string.h>

#include "base/path.h"

bool
path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

bool
path_is_or_under(const char *path, const char *dir)
{
	return strcmp(path, dir) == 0 || path_is_under(path, dir);
}
