/*
 * declaration-write.h: debian/extras.yaml written by extras-convert.
 *
 * The keys are those declaration.c reads: app, root (only when not the
 * default), privileges, bus-names and ids.  Without --privileges, --root,
 * --bus-names and --ids an existing declaration is kept, so that a second
 * run never undoes the author's.
 */
#ifndef DH_EXTRAS_DECLARATION_WRITE_H
#define DH_EXTRAS_DECLARATION_WRITE_H

#include <stdbool.h>

#include "base/error-at.h"
#include "convert/convert-plan.h"

#define DECLARATION_FILE "debian/extras.yaml"

struct declaration_options {
	const char *root;	/* NULL: the default */
	/* Comma-separated, NULL or "": none. */
	const char *privileges, *bus_names, *ids;
};

/* The YAML text for APP and O, malloc'ed; NULL with ERR on a bad value. */
char *declaration_text(const char *app, const struct declaration_options *o,
                       struct dpkg_error *err);

/* Plan the write of the tree's debian/extras.yaml. */
int declaration_write(struct convert_plan *plan, const char *app,
                      const struct declaration_options *o,
                      struct dpkg_error *err);

#endif
