/*
 * output.h: a report written where a command's --json option says.
 */
#ifndef DH_EXTRAS_OUTPUT_H
#define DH_EXTRAS_OUTPUT_H

#include <dpkg/error.h>

#include "base/file-rewrite.h"

/*
 * Write through WRITER (given DATA) to PATH: "-" is standard output; any
 * other path is replaced atomically and synced, as every file dh-extras
 * hands to someone else.  0, or -1 with the file and the reason in ERR
 * (PATH then stays as it was).
 */
int output_replace(const char *path, file_writer *writer, const void *data,
                   struct dpkg_error *err);

#endif
