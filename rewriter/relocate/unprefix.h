/*
 * unprefix.h: bring an install made under the namespace prefix back to
 * where an install normally puts things.
 *
 * A build system told the namespace as its prefix installs into
 * DESTDIR/ROOT/APP/...; the maintainer's install files (debian/PKG.install) and
 * overrides expect DESTDIR/usr/... .  This moves ROOT/APP/etc and
 * ROOT/APP/var to etc/ and var/, and everything else under ROOT/APP to
 * usr/, merging into what is already there.  Relocation later moves it
 * all into the namespace again, with every reference checked.  A file
 * with the bytes of the extras- export beside its destination
 * (dh_extras_icons) is dropped instead: run again on a finished tree,
 * relocation finds the export alone.
 */
#ifndef DH_EXTRAS_UNPREFIX_H
#define DH_EXTRAS_UNPREFIX_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "namespace/namespace.h"

/*
 * Unprefix the install tree DESTDIR; VERBOSE lists each move on stdout.
 * Returns the number of entries moved, or -1 with one line in ERR (an
 * entry that exists on both sides and is not a directory there, or a
 * system error); on -1 the tree may be half moved.
 */
long unprefix_tree(const struct extras_namespace *ns, const char *destdir,
                   bool dry_run, struct dpkg_error *err);

#endif
