/*
 * dh-substvar.h: substitution variables of the binary packages
 * (debian/PKG.substvars), which dh_gencontrol puts into the control file,
 * added to as debhelper's addsubstvar does.
 */
#ifndef DH_EXTRAS_DH_SUBSTVAR_H
#define DH_EXTRAS_DH_SUBSTVAR_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"

/*
 * Add ITEM ("apparmor (>= 3.0)") to the relation list substvar VAR
 * ("misc:Depends") of PACKAGE, unless it is there already.  The file is
 * replaced atomically; nothing is written under --no-act.  Returns -1 with
 * ERR filled when the old file cannot be read or the new one written,
 * leaving the old one as it was.
 */
int dh_helper_addsubstvar(const struct dh_helper *h, const char *package,
                          const char *var, const char *item,
                          struct dpkg_error *err);

#endif
