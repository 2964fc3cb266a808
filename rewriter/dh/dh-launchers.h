/*
 * dh-launchers.h: start the programs of a namespace with its data on
 * XDG_DATA_DIRS, as dh_extras_launchers does (run by dh after
 * dh_extras_icons); relocate/launcher.h says how and why.
 */
#ifndef DH_EXTRAS_DH_LAUNCHERS_H
#define DH_EXTRAS_DH_LAUNCHERS_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"
#include "namespace/namespace.h"

/*
 * When any package of the source ships data of NS found through
 * XDG_DATA_DIRS (the packages of one source share the namespace and its
 * data), each program in NS/bin, NS/sbin, NS/games and NS/libexec of the
 * packages H acts on becomes NS/DIR/.PROG behind a launcher, or gets the
 * line of its language; a link there to a program elsewhere in the
 * namespace is seen through.  Returns 0, or -1 with one line in ERR.
 */
int dh_launchers(const struct dh_helper *h, const struct extras_namespace *ns,
                 struct dpkg_error *err);

#endif
