/*
 * path.c: relations between paths as strings.
 */
#include <limits.h>
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

/* Resolve "." and ".." in the absolute PATH, in place. */
void
path_clean(char *path)
{
	char out[PATH_MAX];
	size_t n = 0;
	char *save, *comp;

	for (comp = strtok_r(path, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			continue;
		}
		size_t len = strlen(comp);

		if (n + 1 + len >= sizeof(out))
			break;
		out[n++] = '/';
		memcpy(out + n, comp, len);
		n += len;
	}
	out[n] = '\0';
	strcpy(path, n ? out : "/");
}
