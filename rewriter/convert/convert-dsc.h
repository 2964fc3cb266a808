/*
 * convert-dsc.h: convert a source package (.dsc and its files) into a new
 * extras source package in OUTDIR.
 *
 * The upload is hostile: checksums are verified before anything is
 * unpacked, tarballs are read with libarchive and refused on anything that
 * could write outside the tree, the upstream tarballs are reused byte for
 * byte, the debian part is converted and repacked reproducibly, and the new
 * .dsc is unsigned.  OUTDIR holds nothing of a failed run.
 */
#ifndef DH_EXTRAS_CONVERT_DSC_H
#define DH_EXTRAS_CONVERT_DSC_H

#include <stdbool.h>

#include "convert/convert.h"

/*
 * Whether the conversion unpacks the debian tarball's member NAME to disk:
 * debian/, what lies directly in it, everything under debian/source; the
 * rest is held (source-archive.h) and packed back as it came.
 */
bool convert_debian_unpacked(const char *name);

int convert_dsc(const char *dsc, const char *outdir,
                const struct convert_options *opt, struct convert_plan *plan,
                struct convert_result *res, struct dpkg_error *err);

#endif
