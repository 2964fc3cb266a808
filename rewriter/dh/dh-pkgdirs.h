/*
 * dh-pkgdirs.h: the old package directories keep working.
 *
 * A package renamed extras-NAME is staged in debian/extras-NAME, but
 * debian/rules written for NAME names debian/NAME, literally or through
 * make variables ("PKGDIR = $(CURDIR)/debian/$(PACKAGE)", "--destdir",
 * "$(MAKE) prefix=$(CURDIR)/debian/NAME/usr install").  During the build
 * debian/NAME is a symbolic link to extras-NAME, so all of those reach
 * the renamed package's tree; dh clean removes the links again.
 */
#ifndef DH_EXTRAS_DH_PKGDIRS_H
#define DH_EXTRAS_DH_PKGDIRS_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

/*
 * The old name of the renamed package PACKAGE ("extras-hello" gives
 * "hello"), or NULL when it has none that may become a link: not renamed,
 * or a name debian/ uses for something else ("tmp", "source", "tests"...).
 */
const char *dh_pkgdir_old_name(const char *package);

/*
 * Make debian/OLD a link to extras-OLD (DEBIAN_DIR is "debian"), creating
 * the staging directory debian/extras-OLD when missing.  A link already
 * there is kept.  Returns 1 when a link was made, 0 when it was there,
 * or -1 with one line in ERR when debian/OLD exists as anything else:
 * whatever the build put there would be packaged by nothing.
 */
int dh_pkgdir_link(const char *debian_dir, const char *package, bool no_act,
                   struct dpkg_error *err);

/*
 * Remove the link debian/OLD made by dh_pkgdir_link; anything else of
 * that name is left alone.  Returns 1 when removed, 0 when there was
 * nothing to remove, -1 with ERR set.
 */
int dh_pkgdir_unlink(const char *debian_dir, const char *package, bool no_act,
                     struct dpkg_error *err);

#endif
