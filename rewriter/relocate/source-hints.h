/*
 * source-hints.h: where the unpacked source defines a path the build
 * compiled in, and what would change it.
 *
 * When relocation cannot patch a compiled-in string, the offset in the
 * ELF file says little to the author.  The string came from somewhere in
 * the source: a make variable (GLOBALCONF = /etc/boxes/boxes-config), a
 * #define, configure.ac, a Meson option, a CMake variable.  Each such
 * place is a hint, with the argument that would set it for the namespace
 * where there is one ("pass GLOBALCONF=/opt/.../boxes-config to
 * dh_auto_build").
 */
#ifndef DH_EXTRAS_SOURCE_HINTS_H
#define DH_EXTRAS_SOURCE_HINTS_H

#include <stddef.h>

#include <dpkg/error.h>

/* At most this many places are named for one string. */
#define SOURCE_HINTS_MAX 8

struct source_hint {
	char *file;	/* relative to the source tree */
	long line;
	char *what;	/* "make variable GLOBALCONF", "#define DATADIR", ... */
	char *fix;	/* what would set it for the namespace, or NULL */
};

struct source_hints {
	struct source_hint *v;
	size_t n;
};

/*
 * Look in the build files and C/C++ and Go sources of the tree DIR (debian/,
 * .pc/, .git/ and obj-*\/ left out) for STRING, a path ending at a path
 * boundary, whose namespace counterpart is REPLACEMENT.  Files are visited
 * in bytewise order.  Returns 0 (HINTS may be empty), or -1 with one line
 * in ERR when DIR cannot be read.
 */
int source_hints_find(const char *dir, const char *string,
                      const char *replacement, struct source_hints *hints,
                      struct dpkg_error *err);
void source_hints_free(struct source_hints *hints);

#endif
