/*
 * orig-tarball.h: the upstream tarballs beside a tree converted in place,
 * made available under the source's new name.
 *
 * dpkg-source -b looks for ../SOURCE_UPSTREAM.orig.tar.* by the source's
 * name, so once debian/control says extras-NAME, a 3.0 (quilt) or 1.0
 * source with an upstream tarball does not build until that tarball is
 * there under extras-NAME_UPSTREAM too.  Each ../NAME_UPSTREAM.orig.tar.*,
 * .orig-COMPONENT.tar.* and its .asc signature gets a hard link (a copy
 * across file systems) under the new name; a different file already
 * holding the new name is never replaced, only reported.
 */
#ifndef DH_EXTRAS_ORIG_TARBALL_H
#define DH_EXTRAS_ORIG_TARBALL_H

#include "base/error-at.h"
#include "convert/convert-plan.h"

/*
 * For the tree PLAN->dir of app APP at VERSION (as debian/changelog has
 * it): link its upstream tarballs, one note in PLAN for each made or
 * left.  A native version (no revision) has none: nothing is done.
 */
int orig_tarball_link(struct convert_plan *plan, const char *app,
                      const char *version, struct dpkg_error *err);

#endif
