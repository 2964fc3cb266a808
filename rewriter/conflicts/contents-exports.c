/*
 * contents-exports.c: which archive paths an extras package could ever
 * clash with.
 *
 * Called on every line of every Contents file: a few byte compares decide
 * for the 99.9% of paths that are nowhere near an export.
 */
#include <string.h>

#include "conflicts/contents-exports.h"

#define PREFIX "extras-"
#define PREFIX_LEN (sizeof(PREFIX) - 1)

/* Whether PATH starts with the literal DIR; *REST then points past it. */
#define STARTS(path, len, dir, rest) \
	((len) >= sizeof(dir) - 1 && memcmp((path), (dir), \
	                                    sizeof(dir) - 1) == 0 && \
	 ((rest) = (path) + sizeof(dir) - 1, 1))

/* Whether the last component of [P, END) starts with "extras-". */
static bool
base_has_prefix(const char *p, const char *end)
{
	const char *base = end;

	while (base > p && base[-1] != '/')
		base--;
	return (size_t)(end - base) > PREFIX_LEN &&
	       memcmp(base, PREFIX, PREFIX_LEN) == 0;
}

/* Whether [P, END) starts with "extras-" (a package's own directory). */
static bool
own_dir(const char *p, const char *end)
{
	return (size_t)(end - p) > PREFIX_LEN &&
	       memcmp(p, PREFIX, PREFIX_LEN) == 0;
}

bool
contents_is_export(const char *path, size_t len)
{
	const char *end = path + len, *rest;

	if (STARTS(path, len, "etc/apparmor.d/", rest))
		return rest < end;
	if (!STARTS(path, len, "usr/share/", rest))
		return false;
	len = end - rest;
	path = rest;
	if (len == 0)
		return false;
	switch (path[0]) {
	case 'a':
		if (STARTS(path, len, "applications/", rest) ||
		    STARTS(path, len, "appdata/", rest))
			return base_has_prefix(rest, end);
		return false;
	case 'd':
		if (STARTS(path, len, "doc/", rest))
			return own_dir(rest, end);
		if (STARTS(path, len, "dbus-1/services/", rest))
			return rest < end;
		return false;
	case 'i':
		if (STARTS(path, len, "icons/", rest))
			return base_has_prefix(rest, end);
		return false;
	case 'l':
		if (STARTS(path, len, "lintian/overrides/", rest))
			return own_dir(rest, end);
		return false;
	case 'm':
		if (STARTS(path, len, "metainfo/", rest))
			return base_has_prefix(rest, end);
		return false;
	case 'p':
		if (STARTS(path, len, "pixmaps/", rest))
			return base_has_prefix(rest, end);
		return false;
	}
	return false;
}
