/*
 * dh-scripts.h: give every binary package the maintainer scripts
 * dh-extras generates, and only those, as dh_extras_scripts does (run by
 * dh after dh_installdeb); scripts/maintscript-generate.h says which and
 * why.
 */
#ifndef DH_EXTRAS_DH_SCRIPTS_H
#define DH_EXTRAS_DH_SCRIPTS_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"
#include "namespace/namespace.h"

/*
 * In the DEBIAN directory of each package H acts on whose build directory
 * exists, write the scripts generated for it (with the profile of NS when
 * the package ships it in etc/apparmor.d) and remove every other, saying
 * what a script it replaces held.  Returns 0, or -1 with one line in
 * ERR.
 */
int dh_scripts(const struct dh_helper *h, const struct extras_namespace *ns,
               struct dpkg_error *err);

#endif
