/*
 * dh-modules.h: make the Perl, Ruby and Node programs of a namespace find
 * its modules, as dh_extras_modules does (run by dh after
 * dh_extras_relocate); relocate/module-launcher.h says how and why.
 */
#ifndef DH_EXTRAS_DH_MODULES_H
#define DH_EXTRAS_DH_MODULES_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"
#include "namespace/namespace.h"

/*
 * When any package of the source ships modules of a language in the
 * namespace where Debian's build systems put them (the packages of one
 * source share the namespace and its modules), each program of that
 * language in NS/bin, NS/sbin, NS/games and NS/libexec of the packages H
 * acts on gets the line that puts them all on its search path.  Returns
 * 0, or -1 with one line in ERR.
 */
int dh_modules(const struct dh_helper *h, const struct extras_namespace *ns,
               struct dpkg_error *err);

#endif
