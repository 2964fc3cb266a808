/*
 * source-archive.h: the tarballs of a source package, read safely and
 * written reproducibly, with libarchive.
 *
 * Every member is checked first (no absolute names, no "..", no links
 * leading outside the tree or members reached through a link, no device
 * nodes, FIFOs or sockets, nothing listed twice but a regular file or a
 * directory, sizes within the limits below), and only a tarball that
 * passes is extracted, a regular file listed again replacing the one
 * before as tar makes it: in two readings, or in one that keeps the
 * members in a spill file until the last is checked.  Writing sorts the
 * members and fixes their owners, modes and mtimes, so the same tree
 * always gives the same bytes.
 */
#ifndef DH_EXTRAS_SOURCE_ARCHIVE_H
#define DH_EXTRAS_SOURCE_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "base/error-at.h"

/* Limits against compression bombs. */
#define SOURCE_MEMBER_MAX ((int64_t)512 * 1024 * 1024)
#define SOURCE_TOTAL_MAX ((int64_t)2 * 1024 * 1024 * 1024)
#define SOURCE_MEMBERS_MAX 200000
/* Limits on member names, so that the unpacked tree can be removed. */
#define SOURCE_PATH_MAX 4095
#define SOURCE_DEPTH_MAX 256

/*
 * Check every member of the tarball PATH (NAME in messages); with PREFIX
 * ("debian"), refuse members outside that directory.
 */
int source_archive_check(const char *path, const char *name,
                         const char *prefix, struct dpkg_error *err);

/*
 * Whether the checked tarball PATH has, at its top (in its top directory,
 * or at its root), a regular file named one of WANTED (NULL-terminated).
 */
int source_archive_has_top_file(const char *path, const char *name,
                                const char *const *wanted, bool *found,
                                struct dpkg_error *err);

/* Extract the checked tarball PATH into the existing directory DEST. */
int source_archive_extract(const char *path, const char *name,
                           const char *dest, struct dpkg_error *err);

/*
 * The members of a tarball kept out of the unpacked tree: their data in
 * one file, unlinked, rather than one file each on disk, which is what
 * 200,000 members cost (creating, reading back and removing each).
 */
struct source_held;

/* Whether the member NAME (normalised, "debian/m/f") is unpacked. */
typedef bool source_unpacked_fn(const char *name);

/*
 * Check the tarball PATH as source_archive_check() does and, once it
 * passes, extract it into DEST as source_archive_extract() does, in one
 * reading: but only the members UNPACKED picks, and the directories above
 * the others; the others go to *HELD, for source_archive_pack() to write
 * as they would have been on disk.  UNPACKED must pick the directories
 * above what it picks.  Returns 1, the tarball checked, DEST to be
 * emptied and the tarball extracted whole, when the held members cannot
 * be told apart from the tree as tar would leave it: a hard link between
 * a held member and an unpacked one, a held member below something that
 * is not a directory, a hard link carrying data, a name the file system
 * would refuse.
 */
int source_archive_extract_held(const char *path, const char *name,
                                const char *prefix, const char *dest,
                                source_unpacked_fn *unpacked,
                                struct source_held **held,
                                struct dpkg_error *err);

void source_held_free(struct source_held *held);

enum source_compression {
	SOURCE_GZIP,
	SOURCE_XZ,
	/*
	 * xz -3, for the packaging alone: on real debian tarballs (xterm,
	 * qbittorrent, goobox, nano) 6 to 9 % larger than -6, and about 6
	 * times faster, which is what a debian/ of megabytes from a hostile
	 * upload costs the converter.
	 */
	SOURCE_XZ_FAST,
};

/*
 * Write the tree DIR (or only its subdirectory SUBDIR, when not NULL),
 * with the members HELD (or NULL) kept out of it, to the tarball PATH,
 * members named TOP/... (or as in DIR when TOP is NULL), owned by root,
 * dated MTIME.
 */
int source_archive_pack(const char *path, const char *dir, const char *subdir,
                        const struct source_held *held, const char *top,
                        time_t mtime, enum source_compression compression,
                        struct dpkg_error *err);

#endif
