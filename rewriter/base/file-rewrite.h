/*
 * file-rewrite.h: replace a staged file by a transformation of its
 * content, atomically and keeping its mode.
 */
#ifndef DH_EXTRAS_FILE_REWRITE_H
#define DH_EXTRAS_FILE_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <dpkg/error.h>

/*
 * A transformation: the new content of BUF (malloc'ed, its length in
 * *OUTLEN), or NULL when nothing changes.
 */
typedef char *file_transform_fn(const char *buf, size_t len, size_t *outlen,
                                void *arg);

/*
 * Read PATH, apply FN and replace PATH by the result (unless NO_ACT).
 * Returns 1 when the content changed, 0 when not, or -1 with
 * "PATH: ..." in ERR.
 */
int file_rewrite(const char *path, file_transform_fn *fn, void *arg,
                 bool no_act, struct dpkg_error *err);

struct stat;

/* What a writer puts on FP from DATA; -1 on a write error. */
typedef int file_writer(FILE *fp, const void *data);

/* The writer of LEN bytes of DATA, given a struct file_bytes. */
struct file_bytes {
	const void *data;
	size_t len;
};
file_writer file_write_bytes;

enum file_write_flags {
	/* LIKE's owner, not the writer's. */
	FILE_WRITE_OWNER = 1,
	/* Synced before it replaces PATH: a file handed to someone else. */
	FILE_WRITE_SYNC = 2,
};

/*
 * PATH replaced atomically by what WRITER puts on a stream from DATA, with
 * the mode of LIKE when not NULL (else as a new file gets it), and LIKE's
 * owner with FILE_WRITE_OWNER.  0, or -1 with the reason in ERR; on an
 * error PATH stays as it was and nothing is left beside it.
 */
int file_write_atomically(const char *path, file_writer *writer,
                          const void *data, const struct stat *like,
                          unsigned flags, struct dpkg_error *err);

/*
 * PATH replaced atomically (not synced: a staged build file, as debhelper
 * writes them) by the LEN bytes of DATA, with the mode of LIKE, and its
 * owner when OWNER.  0, or -1 with the reason in ERR.
 */
int file_replace(const char *path, const void *data, size_t len,
                 const struct stat *like, bool owner, struct dpkg_error *err);

/*
 * PATH replaced atomically (not synced, as file_replace) by the LEN bytes
 * of DATA, with MODE, as debhelper installs a file it generated.  0, or
 * -1 with the reason in ERR; on an error nothing is left beside PATH.
 */
int file_install(const char *path, const void *data, size_t len, mode_t mode,
                 struct dpkg_error *err);

#endif
