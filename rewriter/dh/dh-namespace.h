/*
 * dh-namespace.h: the namespace of the source package being built, as
 * every dh_extras_* helper finds it: APP and ROOT from debian/extras.yaml
 * when declared, else APP from the source name without "extras-" and the
 * default root.
 */
#ifndef DH_EXTRAS_DH_NAMESPACE_H
#define DH_EXTRAS_DH_NAMESPACE_H

#include <stddef.h>

#include <dpkg/error.h>

#include "namespace/declaration.h"
#include "namespace/namespace.h"

#define DH_DECLARATION "debian/extras.yaml"

/*
 * Load debian/extras.yaml into DECL and fill NS for the source package
 * SOURCE (from debian/control).  Returns 0, or -1 with one line in ERR
 * naming the file (and line) that is wrong; DECL is released with
 * declaration_free either way.
 */
int dh_namespace_find(const char *source, struct declaration *decl,
                      struct extras_namespace *ns, struct dpkg_error *err);

#endif
