/*
 * spool.h: append to a file from one thread, written by another.
 *
 * The Contents index writes its largest section while it is still being
 * built: the builder appends into one of a few buffers while a writer
 * thread copies the full ones into the file, so copying into the page
 * cache overlaps with parsing instead of following it.
 */
#ifndef DH_EXTRAS_SPOOL_H
#define DH_EXTRAS_SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SPOOL_CHUNK (8u << 20)

struct spool;

/* Append to FD from offset START on. */
struct spool *spool_new(int fd, off_t start);

/* Room for N (at most SPOOL_CHUNK) bytes at the end; then spool_commit. */
unsigned char *spool_reserve(struct spool *s, size_t n);
void spool_commit(struct spool *s, unsigned char *end);

/* Bytes appended so far. */
uint64_t spool_length(const struct spool *s);

/* Write what is left, stop the writer; 0, or the errno of a failure. */
int spool_finish(struct spool *s);

#endif
