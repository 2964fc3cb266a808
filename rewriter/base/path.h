/*
 * path.h: relations between paths as strings, the same in every room.
 */
#ifndef DH_EXTRAS_PATH_H
#define DH_EXTRAS_PATH_H

#include <stdbool.h>

/* Whether PATH is below the directory DIR: DIR is a prefix of it at a
 * '/' ("usr/share" holds "usr/share/doc", not "usr/shared" nor itself). */
bool path_is_under(const char *path, const char *dir);

/* Whether PATH is DIR or below it. */
bool path_is_or_under(const char *path, const char *dir);

/* Resolve "." and ".." in the absolute PATH (at most PATH_MAX bytes)
 * by name, in place: "/a/b/../c" becomes "/a/c". */
void path_clean(char *path);

#endif
