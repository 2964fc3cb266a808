/*
 * changelog-rewrite.h: debian/changelog's first line names the new source.
 *
 * Only the first entry is read: its heading ("hello (2.10-3) unstable;
 * urgency=medium", name and version checked by libdpkg) and its trailer,
 * whose date fixes the mtimes of a rebuilt source package.
 */
#ifndef DH_EXTRAS_CHANGELOG_REWRITE_H
#define DH_EXTRAS_CHANGELOG_REWRITE_H

#include <stddef.h>
#include <time.h>

#include "base/error-at.h"
#include "convert/convert-plan.h"

struct changelog_info {
	char *version;		/* as written: "1:2.10-3" */
	time_t timestamp;	/* of the first entry's trailer */
};

/*
 * Rewrite TEXT, read from FILE, for the source whose app id is APP: the
 * new text in *OUT (malloc'ed).
 */
int changelog_rewrite_text(const char *file, const char *text, size_t len,
                           const char *app, struct changelog_info *info,
                           char **out, struct dpkg_error *err);

/* Plan the rewrite of the tree's debian/changelog. */
int changelog_rewrite(struct convert_plan *plan, const char *app,
                      struct changelog_info *info, struct dpkg_error *err);

void changelog_info_free(struct changelog_info *info);

#endif
