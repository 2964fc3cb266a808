/*
 * file-copy.h: a file's bytes copied, in the kernel where it can.
 */
#ifndef DH_EXTRAS_FILE_COPY_H
#define DH_EXTRAS_FILE_COPY_H

#include <stdbool.h>
#include <sys/types.h>

#include <dpkg/error.h>

/*
 * The first SIZE bytes of IN written to OUT at its offset: with
 * copy_file_range(2) (a reflink where the file system shares extents),
 * else through a buffer.  0, or -1 with errno set (EIO: IN was short).
 */
int file_copy_fd(int out, int in, off_t size);

/*
 * The regular file FROM (not a symlink) copied to TO, which must not
 * exist, created with MODE: as given when EXACT, else through the umask
 * as open(2) applies it.  0, or -1 with "TO: cannot ..." in ERR.
 */
int file_copy(const char *from, const char *to, mode_t mode, bool exact,
              struct dpkg_error *err);

#endif
