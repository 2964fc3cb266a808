/*
 * file-rewrite.h: replace a staged file by a transformation of its
 * content, atomically and keeping its mode.
 */
#ifndef DH_EXTRAS_FILE_REWRITE_H
#define DH_EXTRAS_FILE_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

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

/*
 * PATH replaced atomically (not synced: a staged build file, as debhelper
 * writes them) by the LEN bytes of DATA, with the mode of LIKE, and its
 * owner when OWNER.  0, or -1 with the reason in ERR.
 */
struct stat;
int file_replace(const char *path, const void *data, size_t len,
                 const struct stat *like, bool owner, struct dpkg_error *err);

#endif
