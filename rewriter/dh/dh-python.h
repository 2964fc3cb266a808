/*
 * dh-python.h: make the Python programs of a namespace find its modules,
 * and byte-compile them into the package, as dh_extras_python does (run
 * by dh after dh_extras_relocate); relocate/python-launcher.h says how
 * and why.
 */
#ifndef DH_EXTRAS_DH_PYTHON_H
#define DH_EXTRAS_DH_PYTHON_H

#include <dpkg/error.h>

#include "dh/dh-helper.h"
#include "namespace/namespace.h"

/*
 * When any package of the source ships Python modules in a dist-packages
 * or site-packages directory of NS/lib/python3* (the packages of one
 * source share the namespace and its modules), each script in NS/bin, NS/sbin,
 * NS/games and NS/libexec of the packages H acts on gets the line that
 * puts them all on its sys.path, and the modules each of those packages
 * ships are byte-compiled into it.  Returns 0, or -1 with one line in
 * ERR.
 */
int dh_python(const struct dh_helper *h, const struct extras_namespace *ns,
              struct dpkg_error *err);

#endif
