/*
 * debian-files.h: per-package debhelper files, renamed and judged.
 *
 * debian/NAME.SUFFIX (and debian/SUFFIX, which debhelper applies to the
 * first package) is renamed to debian/extras-NAME.SUFFIX when SUFFIX is one
 * debhelper knows.  Files whose effect reaches outside the namespace are
 * handled by known pattern: dropped with a note when their only effect is
 * system integration an extras app must not have (cron jobs, init scripts,
 * systemd units, menu and emacs registration, alternatives, ...), refused
 * naming the file and line when they cannot be judged.
 */
#ifndef DH_EXTRAS_DEBIAN_FILES_H
#define DH_EXTRAS_DEBIAN_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "convert/control-rewrite.h"
#include "base/convert-error.h"
#include "convert/convert-plan.h"

enum debian_file_kind {
	DEBIAN_FILE_UNKNOWN,	/* not a debhelper file: left alone */
	DEBIAN_FILE_KEEP,	/* renamed, content kept */
	DEBIAN_FILE_DROP,	/* system integration: removed */
	DEBIAN_FILE_SCRIPT,	/* maintainer script: judged line by line */
	DEBIAN_FILE_LINKS,	/* dh_link: both ends must be relocatable */
	DEBIAN_FILE_DIRS,	/* dh_installdirs: system directories dropped */
};

/* The kind of debhelper file SUFFIX ("install", "cron.d", ...) names. */
enum debian_file_kind debian_file_kind(const char *suffix);

/*
 * Judge a maintainer script: 0 when it is only debhelper boilerplate, 1
 * when what it does besides is system integration only (noted in PLAN),
 * -1 (ERR) when a line cannot be judged.
 */
int debian_script_judge(const char *file, const char *text,
                        struct convert_plan *plan, struct convert_error *err);

/* Plan the renames and judgments of every debhelper file in debian/. */
int debian_files_rewrite(struct convert_plan *plan,
                         const struct control_info *info,
                         struct convert_error *err);

#endif
