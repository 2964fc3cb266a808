/*
 * dh-apparmor.h: confine the app, as dh_extras_apparmor does (run by dh
 * after dh_extras_relocate, before dh_installdeb): generate its AppArmor
 * profile from debian/extras.yaml, compile it and install it;
 * dh_extras_scripts gives the package the scripts that load it on
 * install.
 */
#ifndef DH_EXTRAS_DH_APPARMOR_H
#define DH_EXTRAS_DH_APPARMOR_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"
#include "namespace/declaration.h"
#include "namespace/namespace.h"

/*
 * Strip the set-id bits of the packages H acts on, then generate the
 * profile of NS from DECL over the executables every package of the
 * source installs in NS (even when there are none, so that a declaration
 * no profile can be made from fails every build).  The first package in
 * debian/control order with an executable there ships it: when H acts on
 * it, the profile is compiled in debian/.debhelper/extras, installed in
 * its etc/apparmor.d, and the relation its scripts need added to its
 * ${misc:Depends}.  Returns 0, or -1 with one line in ERR.
 */
int dh_apparmor(const struct dh_helper *h, const struct declaration *decl,
                const struct extras_namespace *ns, struct dpkg_error *err);

#endif
