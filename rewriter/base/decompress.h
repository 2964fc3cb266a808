/*
 * decompress.h: read a compressed stream from a file descriptor, in
 * process, through the compression libraries dpkg itself links with.
 *
 * A .deb's members are read with the decompressor their name says, as
 * dpkg-deb chooses it; other files may be told by their magic number.
 */
#ifndef DH_EXTRAS_DECOMPRESS_H
#define DH_EXTRAS_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <dpkg/error.h>

enum decompress_type {
	DECOMPRESS_NONE,
	DECOMPRESS_GZIP,
	DECOMPRESS_XZ,
	DECOMPRESS_LZMA,
	DECOMPRESS_ZSTD,
	DECOMPRESS_BZIP2,
	DECOMPRESS_LZ4,
	DECOMPRESS_UNKNOWN,
};

/* The type of EXTENSION ("", ".gz", ".xz", ".lzma", ".zst", ".bz2",
 * ".lz4"); DECOMPRESS_UNKNOWN for any other. */
enum decompress_type decompress_type_by_extension(const char *extension);

/* The type whose magic number starts HEAD (N bytes), else uncompressed:
 * for files with no name that says, as libarchive and file(1) tell. */
enum decompress_type decompress_type_sniff(const void *head, size_t n);

struct decompress;

/*
 * A stream of TYPE over the next LIMIT bytes of FD (-1: up to its end).
 * NAME ("pkg.deb: data.tar.xz") starts its error messages.  It loads
 * TYPE's library the first time; if that fails, or the decompressor
 * cannot start, the first read says so.
 */
struct decompress *decompress_new(enum decompress_type type, int fd,
                                  int64_t limit, const char *name);

/*
 * Up to N bytes of decompressed data into BUF: fewer only at the end.
 * Returns the count, 0 at the end of the stream, or -1 with ERR set
 * (corrupt or truncated data, a read error, a library that could not be
 * loaded).  What follows the end of a compressed stream within LIMIT is
 * not read.
 */
ssize_t decompress_read(struct decompress *d, void *buf, size_t n,
                        struct dpkg_error *err);

/* The bytes within LIMIT not read from FD yet: what the caller skips to
 * reach the end of LIMIT. */
int64_t decompress_unread(const struct decompress *d);

void decompress_free(struct decompress *d);

#endif
