/*
 * pathmap.h: the old paths a package's files had, and where they went.
 *
 * Holds absolute paths ("/usr/share/foo" -> "/opt/extras.ubuntu.com/foo/
 * share/foo") and finds references to them in any buffer.  A reference
 * matches the longest old path that is a prefix of it and ends at a path
 * boundary: "/usr/share/foo" matches "/usr/share/foo/bar" and
 * "/usr/share/foo:" but not "/usr/share/foobar" or "/usr/share/foo.conf".
 * A reference must start a path: "x/usr/share/foo" is not one.
 *
 * Candidates are found with memchr(3) for '/' followed by one of the old
 * paths' first components; the longest match is then looked up in a hash
 * table, so the cost does not grow with the number of paths.  This scan
 * is the loop over every byte of a package; a PCRE2 JIT pattern doing the
 * same took about twice the CPU time on the benchmark tree (bench/).
 */
#ifndef DH_EXTRAS_PATHMAP_H
#define DH_EXTRAS_PATHMAP_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

struct pathmap;

struct pathmap_match {
	size_t start;		/* offset of the reference */
	size_t len;		/* length of the old path matched */
	const char *old;	/* the old path */
	const char *new;	/* what replaces it */
	bool bounded;		/* it starts and ends at a path boundary
				   (always, but from pathmap_next_packed) */
};

/* Per-thread matching state. */
struct pathmap_scanner;

struct pathmap *pathmap_new(void);
void pathmap_free(struct pathmap *map);

/* Add OLD -> NEW (absolute paths); returns -1 on allocation failure. */
int pathmap_add(struct pathmap *map, const char *old, const char *new);
size_t pathmap_count(const struct pathmap *map);

/* Prepare the candidate search; call once, after the last add. */
int pathmap_compile(struct pathmap *map, struct dpkg_error *err);

/* The new path for exactly OLD, or NULL. */
const char *pathmap_lookup(const struct pathmap *map, const char *old,
                           size_t len);

/* The longest old path that is a prefix of PATH at a boundary. */
bool pathmap_resolve(const struct pathmap *map, const char *path,
                     struct pathmap_match *match);

struct pathmap_scanner *pathmap_scanner_new(const struct pathmap *map);
void pathmap_scanner_free(struct pathmap_scanner *sc);

/*
 * Find the first reference in BUF[FROM..LEN).  Returns true and fills
 * MATCH, or false when there is none.
 */
bool pathmap_next(struct pathmap_scanner *sc, const unsigned char *buf,
                  size_t len, size_t from, struct pathmap_match *match);

/*
 * The same in packed string data, where strings follow each other with
 * no terminator (a Go binary's: a string is a pointer and a length):
 * "x/usr/share/foo" and "/usr/share/foobar" may be "/usr/share/foo" right
 * after or before another string, so every occurrence of an old path
 * matches, the longest first.  MATCH->bounded says whether it also
 * starts and ends at a path boundary.
 */
bool pathmap_next_packed(struct pathmap_scanner *sc, const unsigned char *buf,
                         size_t len, size_t from,
                         struct pathmap_match *match);

/*
 * The same for references encoded in UTF-16 (either byte order): only
 * found, never patched.  MATCH->start and ->len are in bytes.
 */
bool pathmap_next_utf16(struct pathmap_scanner *sc, const unsigned char *buf,
                        size_t len, size_t from, struct pathmap_match *match);

/*
 * Whether BUF holds a path of the map that pathmap_next() (PACKED false)
 * or pathmap_next_packed() (PACKED true), or pathmap_next_utf16() would
 * find: one pass, where they take two.
 */
bool pathmap_holds_any(struct pathmap_scanner *sc, const unsigned char *buf,
                       size_t len, bool packed);

/* Whether C may continue a file name (so a match cannot end before it). */
static inline bool
pathmap_is_name_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	       c == '+' || c == '~' || c == '@' || c >= 0x80;
}

#endif
