/*
 * contents.h: read Contents indices as Debian and Ubuntu publish them.
 *
 * A Contents file maps each file path to the packages that ship it:
 *
 *	usr/bin/hello                       devel/hello,universe/misc/hello-x
 *
 * It may be compressed (gzip, xz, lz4, zstd, bzip2: whatever libarchive's
 * filters read) or plain, and may start with the old free-text header
 * that ends in a "FILE  LOCATION" line.  The path is everything before the
 * last run of blanks (paths may hold spaces); the package list is what
 * follows, each item optionally prefixed by "area/section/".  Lines that
 * do not fit are counted and ignored.
 *
 * Decompression runs in a second thread while the caller's thread parses,
 * so reading costs about as much as decompressing alone.
 *
 * Only the paths contents_is_export() keeps are handed on (the rest an
 * extras package can never ship, see contents-exports.h); of the other
 * lines, only their package lists, for the set of package names.
 */
#ifndef DH_EXTRAS_CONTENTS_H
#define DH_EXTRAS_CONTENTS_H

#include <stddef.h>
#include <stdint.h>

#include <dpkg/error.h>

/*
 * Called once per kept entry: PATH without a leading "/" or "./" (PATHLEN
 * bytes, not NUL-terminated), its contents_hash(), PACKAGES as written
 * ("utils/bar,foo").  Called with PATH NULL (PATHLEN and HASH 0) for the
 * lines whose path is not kept, at least once for each package list they
 * hold (not for every line: a run of one list gives one call).
 */
typedef void contents_entry_fn(void *ctx, const char *path, size_t pathlen,
                               uint64_t hash, const char *packages,
                               size_t pkglen);

struct contents_stats {
	uint64_t lines;
	/* Lines that fit, and of them those whose path was kept. */
	uint64_t entries;
	uint64_t kept;
	uint64_t bad_lines;
	/* Files that carried the free-text header. */
	unsigned headers;
};

/*
 * Read each of the NFILES FILENAMES in turn, calling ENTRY for every
 * entry; add to STATS.  Returns 0, or -1 with ERR naming the file.
 */
int contents_read(const char *const *filenames, int nfiles,
                  contents_entry_fn *entry, void *ctx,
                  struct contents_stats *stats, struct dpkg_error *err);

/*
 * The package name in a package list item: "universe/games/foo" → "foo".
 * ITEM is LEN bytes long; the name's length goes to *NAMELEN.
 */
const char *contents_item_package(const char *item, size_t len,
                                  size_t *namelen);

/* The 64-bit hash of a path (computed in the reader thread). */
uint64_t contents_hash(const char *s, size_t len);

#endif
