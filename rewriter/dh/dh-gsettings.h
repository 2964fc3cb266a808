/*
 * dh-gsettings.h: compile an app's GSettings schemas inside its namespace
 * and launch its exported entry points with them in sight, as
 * dh_extras_gsettings does (run by dh after dh_extras_relocate);
 * relocate/gsettings-exec.h says how and why.
 */
#ifndef DH_EXTRAS_DH_GSETTINGS_H
#define DH_EXTRAS_DH_GSETTINGS_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"
#include "namespace/namespace.h"

/*
 * Compile the schemas in NS/share/glib-2.0/schemas of each package H acts
 * on; when any package of the source ships schemas there (the packages
 * of one source share the namespace), patch the Exec= lines of the
 * .desktop and D-Bus .service files of the packages H acts on, with a
 * lintian override for each .desktop file patched.  Returns 0, or -1
 * with one line in ERR.
 */
int dh_gsettings(const struct dh_helper *h, const struct extras_namespace *ns,
                 struct dpkg_error *err);

#endif
