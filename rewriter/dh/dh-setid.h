/*
 * dh-setid.h: set-id bits removed from the staged trees.
 *
 * dh_fixperms clears them, but a maintainer's override (chmod 2755 after
 * dh_fixperms, or dh_fixperms -X) can set them again.  An extras app runs
 * confined, as its user: set-id privileges are not among what it may
 * declare, and the gate refuses them.  Rather than fail the build at the
 * gate, the bits are cleared where the add-on confines the app, one
 * warning line each, saying what the program loses.
 */
#ifndef DH_EXTRAS_DH_SETID_H
#define DH_EXTRAS_DH_SETID_H

#include <stddef.h>

#include "dh/dh-helper.h"

/*
 * Clear the setuid and setgid bits of every regular file below debian/PKG/
 * of the packages H acts on (nothing under --no-act), printing one line
 * "NAME: warning: debian/PKG/PATH: setgid bit removed (mode 2755 -> 0755):
 * ..." for each, *COUNT the number of files that had them.  0, or -1
 * with ERR on a tree that cannot be read or a mode that cannot be changed.
 */
int dh_strip_setid(const struct dh_helper *h, size_t *count,
                   struct dpkg_error *err);

#endif
