/*
 * output.h: a report written where a command's --json option says.
 */
#ifndef DH_EXTRAS_OUTPUT_H
#define DH_EXTRAS_OUTPUT_H

#include <stdio.h>

typedef void output_writer(FILE *fp, const void *data);

/*
 * Write through WRITE (given DATA) to PATH: "-" is standard output; any
 * other path is replaced atomically and synced, as every file dh-extras
 * hands to someone else.  Dies naming the file on a write error: for a
 * command's main(), not for library code.
 */
void output_replace(const char *path, output_writer *write,
                    const void *data);

#endif
