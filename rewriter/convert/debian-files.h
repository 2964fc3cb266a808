/*
 * debian-files.h: per-package debhelper files, judged.
 *
 * debian/NAME.SUFFIX (and debian/SUFFIX, which debhelper applies to the
 * first package) keeps its name: the build runs under the maintainer's
 * package names (see dh/dh-rename.h).  Files whose effect reaches outside
 * the namespace are
 * handled by known pattern: dropped with a note when their only effect is
 * system integration an extras app must not have (cron jobs, init scripts,
 * systemd units, menu and emacs registration, alternatives, ...), refused
 * naming the file and line when they cannot be judged.  Maintainer
 * scripts and debconf's files are always dropped: an extras package runs
 * only the scripts dh-extras generates.  What they did is reported, and
 * the alternatives they registered become .links lines.
 */
#ifndef DH_EXTRAS_DEBIAN_FILES_H
#define DH_EXTRAS_DEBIAN_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "convert/control-rewrite.h"
#include "base/error-at.h"
#include "convert/convert-plan.h"

enum debian_file_kind {
	DEBIAN_FILE_UNKNOWN,	/* not a debhelper file: left alone */
	DEBIAN_FILE_KEEP,	/* kept as written */
	DEBIAN_FILE_DROP,	/* system integration: removed */
	DEBIAN_FILE_LIBRARY,	/* describes libraries for others: removed */
	DEBIAN_FILE_SCRIPT,	/* maintainer script: reported, removed */
	DEBIAN_FILE_DEBCONF,	/* debconf's config, templates: reported, removed */
	DEBIAN_FILE_LINKS,	/* dh_link: both ends must be relocatable */
	DEBIAN_FILE_DIRS,	/* dh_installdirs: system directories dropped */
};

/* The kind of debhelper file SUFFIX ("install", "cron.d", ...) names. */
enum debian_file_kind debian_file_kind(const char *suffix);

/* Plan the renames and judgments of every debhelper file in debian/. */
int debian_files_rewrite(struct convert_plan *plan,
                         const struct control_info *info,
                         struct dpkg_error *err);

#endif
