/*
 * control-rewrite.h: debian/control renamed into the extras- name space.
 *
 * Source: gets the "extras-" prefix (the source's own name must change:
 * the .dsc, the tarballs and the changelog are the archive's); the binary
 * packages keep the names the maintainer's build computes from, and take
 * theirs at the package's edge (dh/dh-rename.h); relations between them
 * stay as written.  Conflicts, Breaks, Replaces and Provides on other
 * packages are dropped
 * (they only made sense in the shared name space); dh-sequence-extras is
 * added to Build-Depends; Priority extra becomes optional; a udeb is kept
 * out of every build.  Every other byte stays as written.
 */
#ifndef DH_EXTRAS_CONTROL_REWRITE_H
#define DH_EXTRAS_CONTROL_REWRITE_H

#include <stddef.h>

#include "base/error-at.h"
#include "convert/convert-plan.h"

#define CONTROL_BUILD_DEPENDS_ADDON "dh-sequence-extras"
/* The build profile that keeps a udeb out of every build. */
#define CONTROL_UDEB_PROFILE "<pkg.extras.udeb>"
/* More binary packages than this is not an app: refused. */
#define CONTROL_PACKAGES_MAX 1000
/* Nor are binary package names totalling more bytes than this. */
#define CONTROL_NAMES_MAX 16384

struct control_info {
	char *app;		/* the source name without "extras-" */
	char **packages;	/* binary package names without "extras-" */
	int npackages;
};

/*
 * Rewrite TEXT, read from FILE: the new text (malloc'ed, NUL-terminated)
 * in *OUT; notes about what was dropped go to PLAN.
 */
int control_rewrite_text(const char *file, const char *text, size_t len,
                         struct control_info *info, char **out,
                         struct convert_plan *plan, struct dpkg_error *err);

/* Plan the rewrite of the tree's debian/control. */
int control_rewrite(struct convert_plan *plan, struct control_info *info,
                    struct dpkg_error *err);

void control_info_free(struct control_info *info);

#endif
