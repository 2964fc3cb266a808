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
 * NWORKERS threads each decompress a large chunk of a file in turn, each
 * chunk ending at a line end, and parse it: the chunks are parsed in no
 * particular order.  So a worker's callback sees its entries in no global
 * order, and must keep to its own state.
 *
 * Contents list files (and symbolic links), never directories; dpkg shares
 * directories between packages.  Each directory a path lies in is handed
 * on too (PACKAGES NULL), at least once: a worker skips those of the
 * previous line in its chunk, which in a sorted file are most of them.
 */
#ifndef DH_EXTRAS_CONTENTS_H
#define DH_EXTRAS_CONTENTS_H

#include <stddef.h>
#include <stdint.h>

#include <dpkg/error.h>

/*
 * Called once per entry: PATH without a leading "/" or "./" (PATHLEN
 * bytes, not NUL-terminated), its contents_hash(), PACKAGES as written
 * ("utils/bar,foo").  For a directory, PACKAGES is NULL and PKGLEN 0.
 */
typedef void contents_entry_fn(void *ctx, const char *path, size_t pathlen,
                               uint64_t hash, const char *packages,
                               size_t pkglen);

struct contents_stats {
	uint64_t lines;
	/* Lines that fit. */
	uint64_t entries;
	uint64_t bad_lines;
	/* Files that carried the free-text header. */
	unsigned headers;
	/* Set by the registry: directories indexed, the index's bytes. */
	uint64_t directories;
	uint64_t index_bytes;
};

/*
 * Read the NFILES FILENAMES with NWORKERS parsing threads, worker W
 * calling ENTRY(CTX[W], ...) for every entry it parses; add to STATS.
 * Returns 0, or -1 with ERR naming the file.
 */
int contents_read(const char *const *filenames, int nfiles, int nworkers,
                  contents_entry_fn *entry, void *const *ctx,
                  struct contents_stats *stats, struct dpkg_error *err);

/*
 * The same, the entries handed on in batches: ENTRIES(CTX[W], E, N) with N
 * entries of one chunk, in its order, valid during the call.  The entries
 * of a run of lines with the same package list share one PACKAGES pointer:
 * within a call, equal pointers (and lengths) are equal lists.
 */
struct contents_entry {
	const char *path;
	const char *packages;	/* NULL for a directory */
	uint64_t hash;		/* contents_hash() of the path */
	uint32_t pathlen, pkglen;
};

typedef void contents_entries_fn(void *ctx, const struct contents_entry *e,
                                 size_t n);

int contents_read_entries(const char *const *filenames, int nfiles,
                          int nworkers, contents_entries_fn *entries,
                          void *const *ctx, struct contents_stats *stats,
                          struct dpkg_error *err);

/* How many workers to use: the processors online, within [1, MAX]. */
int contents_workers(int max);

/*
 * The package name in a package list item: "universe/games/foo" → "foo".
 * ITEM is LEN bytes long; the name's length goes to *NAMELEN.
 */
const char *contents_item_package(const char *item, size_t len,
                                  size_t *namelen);

/*
 * The 64-bit hash of a path (computed in the worker threads), chained over
 * its components: a path in the previous line's directory costs the hash
 * of its last name only.
 */
uint64_t contents_hash(const char *s, size_t len);

/* The 64-bit hash of a string that is not a path (a name, a package list);
 * contents_hash() of one without a slash. */
uint64_t contents_string_hash(const char *s, size_t len);

#endif
