/*
 * dh-manpages.h: the namespace's manual pages and Info manuals compressed
 * as dh_compress compresses them in usr/share/.
 *
 * dh_extras_relocate moves usr/share/man and usr/share/info into the
 * namespace before dh_compress runs, and dh_compress looks only in
 * usr/share/.  The pages would ship uncompressed, and the links made to
 * them by name (update-alternatives' slaves, debian/PKG.links:
 * "usr/share/man/man1/nano.1.gz usr/share/man/man1/editor.1.gz") would
 * dangle.  So they are compressed where they land, before dh_link.
 */
#ifndef DH_EXTRAS_DH_MANPAGES_H
#define DH_EXTRAS_DH_MANPAGES_H

#include <stddef.h>

#include "dh/dh-helper.h"
#include "namespace/namespace.h"

/*
 * In the staged tree DIR, gzip -9n every regular file below NS's
 * share/man and share/info not compressed already (mode and mtime kept),
 * then, as dh_compress does, turn each symlink of DIR whose target is
 * gone but TARGET.gz is there into LINK.gz -> TARGET.gz.  Shown as
 * commands (nothing done under --no-act).  *COUNT: how many files were
 * compressed.  0, or -1 with ERR naming a file that cannot be read or
 * written.
 */
int dh_compress_manpages(const struct dh_helper *h, const char *dir,
                         const struct extras_namespace *ns, size_t *count,
                         struct dpkg_error *err);

#endif
