/*
 * publish.h: the store's signed apt repository, published atomically.
 *
 * reprepro keeps the repository: it includes .debs, writes and signs the
 * indices, and the result is a plain file tree any web server serves.  But
 * it writes dists/ file by file, so a user could fetch a Release of the new
 * state and a Packages of the old one.  So the store never lets reprepro
 * touch what users read: each publication copies the current state
 * (states/N: reprepro's db/, and out/ with pool/ hard-linked, since
 * reprepro only adds and deletes pool files, never rewrites one) into
 * states/N+1, runs reprepro there, and swaps the symbolic link "public"
 * to it with one rename(2).  A failure leaves states/N published and
 * untouched; the state before the current one is removed, the current one
 * kept for users still reading it.  One publisher at a time (flock).
 */
#ifndef DH_EXTRAS_PUBLISH_H
#define DH_EXTRAS_PUBLISH_H

#include <stddef.h>

#include <dpkg/error.h>

#include "store/store.h"

/* The repository's configuration and its first, empty, state. */
int publish_init(const struct store_config *c, const char *log,
                 struct dpkg_error *err);

/* Publish the NDEBS DEBS as a new state; reprepro's output goes to LOG. */
int publish_debs(const struct store_config *c, const char *const *debs,
                 size_t ndebs, const char *log, struct dpkg_error *err);

#endif
