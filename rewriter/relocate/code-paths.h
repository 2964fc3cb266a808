/*
 * code-paths.h: paths a program builds from instruction immediates.
 *
 * A compiler copies a short string into a buffer with immediate moves:
 * char dir[] = "/usr/lib/app/plugins" or strcpy(buf, "/usr/lib") become
 * "movabs $0x62696c2f7273752f" and friends, eight bytes at a time, and
 * the string is nowhere in the file for relocation to see or patch: the
 * build reports nothing and the app finds no plugins.  A directory the
 * package's files moved out of (or one above them), whose first eight
 * bytes lie in the program's code and which is not a string of its read-
 * only data, is such a path when the source names it: the caller asks the
 * source (source-hints.h).
 */
#ifndef DH_EXTRAS_CODE_PATHS_H
#define DH_EXTRAS_CODE_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* The bytes of a string one immediate move holds, at most. */
#define CODE_PATHS_IMMEDIATE 8

/* Candidate paths, each a directory at least CODE_PATHS_IMMEDIATE long. */
struct code_paths {
	char **v;
	size_t n;
};

/*
 * Add to CP every directory above PATH (absolute, as installed before
 * relocation), and PATH's own directory, that is long enough to fill an
 * immediate; each once.
 */
void code_paths_add_dirs(struct code_paths *cp, const char *path);
void code_paths_free(struct code_paths *cp);

/*
 * Whether ELF file BUF's code holds the CODE_PATHS_IMMEDIATE bytes at
 * NEEDLE (a candidate's first ones); the offset of the first in *AT.
 * Candidates share a few of them ("/usr/lib", "/usr/sha"): the code is
 * searched once a prefix, not once a candidate.
 */
bool code_paths_in_code(const unsigned char *buf, size_t len,
                        const char *needle, size_t *at);

/* Whether PATH is a whole string of ELF file BUF's .rodata. */
bool code_paths_in_rodata(const unsigned char *buf, size_t len,
                          const char *path);

#endif
