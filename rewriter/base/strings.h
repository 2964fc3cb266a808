/*
 * strings.h: the library's lists of strings, a malloc'd array of N
 * malloc'd strings, released one way.
 */
#ifndef DH_EXTRAS_STRINGS_H
#define DH_EXTRAS_STRINGS_H

#include <stddef.h>

/* Free each of the N strings of V, then V (NULL with N 0 is fine). */
void strings_free(char **v, size_t n);

#endif
