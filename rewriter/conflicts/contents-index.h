/*
 * contents-index.h: a compact, memory-mapped index of Contents files.
 *
 * Why not SQLite: a label's Contents hold millions of lines (bookworm
 * main: 7.3 million, 668 MB of text).  Inserting them into a B-tree costs
 * tens of seconds and more space than the text; this index is written in
 * about the time it takes to decompress the input, and answers "who ships
 * PATH?" with one hash probe and one small decode.
 *
 * It keeps the paths contents_is_export() allows (the only ones an extras
 * package the review gate accepts can ship outside its namespace: a few
 * thousand of bookworm's 7.3 million) and the name of every package; a
 * lookup of any other path finds nothing.
 *
 * The file, all integers in host byte order (the magic says which):
 *
 *	header		struct contents_index_header
 *	entries		paths in input order, front-coded in blocks of
 *			CONTENTS_BLOCK entries; an entry is
 *			varint(bytes shared with the previous path),
 *			varint(suffix length), suffix, varint(list id);
 *			the first entry of a block shares nothing
 *	blocks		uint64 offset of each block in entries
 *	lists		uint32 offsets (nlists + 1) into the list text:
 *			each list is "pkg,pkg" without area or section
 *	packages	uint32 offsets (npackages + 1) into the name text,
 *			names sorted (strcmp), not separated
 *	slots		uint64 hash slots, linear probing: high half the
 *			hash's low 32 bits, low half entry number + 1 (0:
 *			empty); the home slot is the hash's high 32 bits
 *			scaled to nslots
 *
 * A path is confirmed by decoding its entry, so hash collisions cost time,
 * never a wrong answer.  Writers replace the file by rename(2): readers
 * keep the version they mapped.
 */
#ifndef DH_EXTRAS_CONTENTS_INDEX_H
#define DH_EXTRAS_CONTENTS_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dpkg/error.h>

#include "conflicts/contents.h"

#define CONTENTS_BLOCK 16
#define CONTENTS_PATH_MAX 4096
#define CONTENTS_LABEL_MAX 63

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
uint64_t contents_index_entries(const struct contents_index *idx);

/*
 * Call FOUND with each package list ("pkg,pkg") shipping PATH (relative,
 * as in Contents: "usr/share/doc/extras-foo/copyright").  Returns the
 * number of entries found: 0 for a path contents_is_export() refuses.
 */
typedef void contents_found_fn(void *ctx, const char *packages, size_t len);
int contents_index_find(const struct contents_index *idx, const char *path,
                        contents_found_fn *found, void *ctx);

/* Whether a package NAME ships any file in the index. */
bool contents_index_has_package(const struct contents_index *idx,
                                const char *name);

void contents_index_close(struct contents_index *idx);

#endif
