/*
 * contents-exports.h: which archive paths an extras package could ever
 * clash with.
 *
 * An extras package keeps everything in its namespace (ROOT/APP) but what
 * the rewriter exports (layout_place(): LAYOUT_EXPORT), and the review gate
 * refuses any other file outside it.  Of the exports, those that move into
 * the extras name space must carry it: the gate's "export" rule refuses a
 * .desktop file, icon, pixmap or metainfo file whose name lacks the
 * "extras-" prefix, and its "namespace" rule refuses documentation and
 * lintian overrides that are not the package's own (usr/share/doc/PKG,
 * PKG being extras-NAME by the "name" rule).  So the only paths of an
 * accepted package that an archive may also ship are:
 *
 *	usr/share/doc/extras-NAME..., usr/share/lintian/overrides/extras-NAME
 *	usr/share/{applications,metainfo,appdata,pixmaps,icons}/.../extras-NAME
 *	usr/share/dbus-1/services/ANY	(kept by name: the bus name)
 *	etc/apparmor.d/ANY		(the app's profile)
 *
 * The Contents index keeps those paths only (and every package name): a
 * few thousand out of millions.  The test below is a superset of what the
 * gate accepts (any depth, any suffix), never a subset: a path it drops is
 * one the gate refuses whatever the archives hold.  If the rewriter or the
 * gate ever export more, this test must grow with them.
 */
#ifndef DH_EXTRAS_CONTENTS_EXPORTS_H
#define DH_EXTRAS_CONTENTS_EXPORTS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether PATH (LEN bytes, relative: "usr/share/...") is kept, as above. */
bool contents_is_export(const char *path, size_t len);

#endif
