/*
 * contents-index.h: a compact, memory-mapped index of Contents files.
 *
 * Why not a database table: a label's Contents hold millions of lines
 * (bookworm main: 7.3 million, 668 MB of text).  Loading them into
 * SQLite (one table, one index on the path, journal off) took 22 s and
 * 1.25 GB, 120 times as long as lz4cat takes to decompress them; this
 * index costs 0.47 s of CPU (lz4cat: 0.13 s), spread over the processors,
 * takes 83 MB, and answers "who ships PATH?" with one hash probe.
 *
 * It keeps every path of every line and, as dpkg sees them, the
 * directories those paths lie in; and the name of every package.
 * Building runs in contents_read()'s threads (contents-index.c).
 *
 * The file, all integers in host byte order (the magic says which):
 *
 *	header		struct contents_index_header, padded to 4096 bytes
 *	slots		uint64 hash slots, linear probing: high 40 bits the
 *			path hash's low 40 bits, low 24 bits the package
 *			list's number + 1 (CONTENTS_DIRECTORY: a directory;
 *			0: empty).  The home slot is the hash's high 32 bits
 *			scaled to nslots.
 *	lists		uint32 offsets (nlists + 1) into the list text:
 *			each list is "pkg,pkg" without area or section
 *	packages	uint32 offsets (npackages + 1) into the name text,
 *			names not separated
 *	package slots	uint64 hash slots of the names, linear probing:
 *			high 32 bits the name's contents_string_hash() low 32
 *			bits, low 32 bits its number + 1 (0: empty); the
 *			home slot is the hash modulo npackage_slots, a
 *			power of two at least twice npackages
 *
 * The paths themselves are not stored: a path is known by its 64-bit
 * hash (contents_hash()).  A wrong answer needs another path to agree on
 * all 64 bits, or on the 40 stored ones within the few slots probed: with
 * bookworm's 8 million entries, under one chance in 10^10 per lookup.
 * Writers replace the file by rename(2): readers keep what they mapped.
 */
#ifndef DH_EXTRAS_CONTENTS_INDEX_H
#define DH_EXTRAS_CONTENTS_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dpkg/error.h>

#include "conflicts/contents.h"

#define CONTENTS_LABEL_MAX 63
#define CONTENTS_DIRECTORY 0xffffffu

/*
 * Building: add Contents files, then write once.  The index is built in a
 * temporary file beside PATH, renamed to PATH by contents_builder_write();
 * contents_builder_free() without it leaves PATH as it was.
 */
struct contents_builder;

struct contents_builder *contents_builder_new(const char *label,
                                              const char *path,
                                              struct dpkg_error *err);
/* Read NFILES Contents files into the builder (see contents_read()). */
int contents_builder_add(struct contents_builder *b,
                         const char *const *filenames, int nfiles,
                         struct dpkg_error *err);
const struct contents_stats *
contents_builder_stats(const struct contents_builder *b);
/* Finish the index and put it in place (fsync, rename). */
int contents_builder_write(struct contents_builder *b,
                           struct dpkg_error *err);
void contents_builder_free(struct contents_builder *b);

/* Reading. */
struct contents_index;

int contents_index_open(struct contents_index **idx, const char *path,
                        struct dpkg_error *err);
const char *contents_index_label(const struct contents_index *idx);
/* The paths indexed (lines), and the file's size in bytes. */
uint64_t contents_index_entries(const struct contents_index *idx);
uint64_t contents_index_size(const struct contents_index *idx);

/*
 * Call FOUND with each package list ("pkg,pkg") shipping PATH (relative,
 * as in Contents: "usr/bin/hello"), and DIRECTORY (when not NULL) once if
 * PATH is a directory some indexed path lies in.  Returns the number of
 * lists found.
 */
typedef void contents_found_fn(void *ctx, const char *packages, size_t len);
typedef void contents_dir_fn(void *ctx);
int contents_index_find(const struct contents_index *idx, const char *path,
                        contents_found_fn *found, contents_dir_fn *directory,
                        void *ctx);

/*
 * Whether the LEN bytes at PATH name a directory some indexed path lies
 * in.  Every such directory is indexed, so under a directory that is not,
 * no path is: one probe answers for all the files a package puts there.
 */
bool contents_index_is_directory(const struct contents_index *idx,
                                 const char *path, size_t len);

/* Whether a package NAME ships any file in the index. */
bool contents_index_has_package(const struct contents_index *idx,
                                const char *name);

void contents_index_close(struct contents_index *idx);

#endif
