/*
 * layout.h: where each entry of a staged tree belongs in an extras package.
 *
 * The rules, in order:
 *   - inside the namespace (ROOT/APP/...): stays;
 *   - a directory above the namespace (opt, opt/extras.ubuntu.com): stays;
 *   - an export (what the desktop must find in its usual place) stays,
 *     renamed into the extras name space where its name is global:
 *       usr/share/applications/NAME.desktop    -> extras-NAME.desktop
 *       usr/share/icons/.../NAME.{png,svg,...}  -> extras-NAME.{png,...}
 *       usr/share/pixmaps/NAME.{png,svg,...}    -> extras-NAME.{png,...}
 *       usr/share/metainfo/NAME.xml (appdata)   -> extras-NAME.xml
 *       usr/share/dbus-1/services/NAME.service  -> kept (bus name)
 *       usr/share/doc/..., usr/share/lintian/overrides/... -> kept;
 *       etc/apparmor.d/PROFILE, the app's own profile -> kept;
 *   - anything else moves into the namespace: usr/X -> ROOT/APP/X and
 *     T/X -> ROOT/APP/T/X for every other top-level T (etc, bin, lib, ...).
 *     Man pages, GSettings schemas and autostart files move too: outside
 *     the namespace they would share the system's name space.
 */
#ifndef DH_EXTRAS_LAYOUT_H
#define DH_EXTRAS_LAYOUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "namespace/namespace.h"

enum layout_kind {
	LAYOUT_NAMESPACE,	/* inside ROOT/APP: left alone */
	LAYOUT_ABOVE,		/* a directory above ROOT/APP: left alone */
	LAYOUT_EXPORT,		/* stays outside, maybe renamed */
	LAYOUT_MOVE,		/* moves into the namespace */
};

struct layout_place {
	enum layout_kind kind;
	/* Where the entry ends up, relative, no leading slash. */
	char dest[PATH_MAX];
};

/*
 * Place PATH (relative to the tree, no leading slash) of an entry that is
 * a directory when IS_DIR.  Returns 0, or -1 when the destination would not
 * fit in PATH_MAX.
 */
int layout_place(const struct extras_namespace *ns, const char *path,
                 bool is_dir, struct layout_place *place);

/*
 * Whether PATH (relative) is a directory many packages share, such as
 * usr/bin or usr/share/locale/fr: a package never owns it entirely, so a
 * reference to it is never rewritten.
 */
bool layout_is_shared_dir(const char *path);

/*
 * The paths outside the namespace that NSREST, a path relative to the
 * namespace ("share/foo", "bin/foo", "etc/foo.conf"), stands for: at most
 * two, relative without leading slash ("usr/share/foo"; "usr/bin/foo" and
 * "bin/foo"; "etc/foo.conf").  Returns how many were written to ORIGIN.
 */
int layout_origins(const char *nsrest, char origin[2][PATH_MAX]);

/* Whether NAME already carries the extras- prefix. */
bool layout_has_extras_prefix(const char *name);

/*
 * The shared locale directory, where a package's catalogues are not once
 * they moved into its namespace.  layout_find_shared_localedir() returns
 * the offset, at or after FROM, where BUF (LEN bytes) names the directory
 * itself, alone or with a trailing slash, or -1.  Files below it ("/usr/share/locale/fr/..."), longer names
 * ("/usr/share/locale-langpack", "/x/usr/share/locale") and templates
 * ("/usr/share/locale/%s") are not the directory.  The rewriter and the
 * gate judge by it alike.
 */
#define LAYOUT_SHARED_LOCALEDIR "/usr/share/locale"
long layout_find_shared_localedir(const unsigned char *buf, size_t len,
                                  size_t from);

#endif
