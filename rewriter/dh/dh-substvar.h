/*
 * dh-substvar.h: substitution variables of the binary packages
 * (debian/PKG.substvars), which dh_gencontrol puts into the control file,
 * added to as debhelper's addsubstvar does.
 */
#ifndef DH_EXTRAS_DH_SUBSTVAR_H
#define DH_EXTRAS_DH_SUBSTVAR_H

#include "dh/dh-helper.h"

/*
 * Add ITEM ("apparmor (>= 3.0)") to the relation list substvar VAR
 * ("misc:Depends") of PACKAGE, unless it is there already.  The file is
 * replaced atomically; nothing is written under --no-act.  Exits with one
 * line when the file cannot be read or written.
 */
void dh_helper_addsubstvar(const struct dh_helper *h, const char *package,
                           const char *var, const char *item);

#endif
