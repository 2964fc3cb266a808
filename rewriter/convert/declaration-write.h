/*
 * declaration-write.h: debian/extras.yaml written by extras-convert.
 *
 * The keys are those declaration.c reads: app, root (only when not the
 * default) and privileges.  Without --privileges and --root an existing
 * declaration is kept, so that a second run never undoes the author's.
 */
#ifndef DH_EXTRAS_DECLARATION_WRITE_H
#define DH_EXTRAS_DECLARATION_WRITE_H

#include <stdbool.h>

#include "base/error-at.h"
#include "convert/convert-plan.h"

#define DECLARATION_FILE "debian/extras.yaml"

/*
 * The YAML text for APP, ROOT (NULL: default) and the comma-separated
 * PRIVILEGES (NULL or "": none), malloc'ed; NULL with ERR on a bad value.
 */
char *declaration_text(const char *app, const char *root,
                       const char *privileges, struct dpkg_error *err);

/* Plan the write of the tree's debian/extras.yaml. */
int declaration_write(struct convert_plan *plan, const char *app,
                      const char *root, const char *privileges,
                      struct dpkg_error *err);

#endif
