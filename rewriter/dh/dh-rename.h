/*
 * dh-rename.h: the binary packages take their extras names at the
 * package's edge.
 *
 * The maintainer's build runs under the names debian/control gives: the
 * staging directories, debian/NAME.* files, dh_listpackages and whatever
 * debian/rules computes from them.  Once dh_gencontrol has written each
 * package's DEBIAN/control and its debian/files entry, the package is
 * renamed there: Package: extras-NAME, Source: the extras source, and
 * every relation on a package of the same source names its extras name.
 * dpkg-deb then writes extras-NAME_VERSION_ARCH.deb, and dpkg-genchanges
 * lists it from debian/files.
 */
#ifndef DH_EXTRAS_DH_RENAME_H
#define DH_EXTRAS_DH_RENAME_H

#include <stddef.h>

#include "base/error-at.h"
#include "dh/dh-helper.h"

/*
 * The packages of one source, as debian/control names them, and the
 * virtual names outside the source they provide (dh_rename_virtuals()),
 * each with its provider.
 */
struct dh_rename_set {
	const char *const *names;
	size_t n;
	char **virtuals;
	char **providers;
	size_t n_virtuals;
};

/*
 * Add to SET the names outside the source that TEXT (LEN bytes, a
 * DEBIAN/control read from FILE) Provides, with its package.  Returns 0,
 * or -1 with ERR set.
 */
int dh_rename_virtuals(const char *file, const char *text, size_t len,
                       struct dh_rename_set *set, struct dpkg_error *err);

/*
 * TEXT (LEN bytes, one stanza: a DEBIAN/control read from FILE) with its
 * Package: renamed, Source: naming SOURCE (kept with its version when it
 * has one, dropped when it is the package's new name, as dpkg-gencontrol
 * writes it), and in Depends, Pre-Depends, Recommends, Suggests,
 * Enhances, Breaks, Conflicts, Replaces and Provides every package of SET
 * (or its -dbgsym) given its extras name; each such field as libdpkg
 * parses and writes relations.  A name outside the source goes from
 * Provides (no extras package stands in for another; a substitution
 * variable such as pkg-kde-tools' ${ABI:VirtualPackage} put it there),
 * and an unversioned need of one of SET's virtual names names its
 * provider instead.  A new string in *OUT, or -1 with ERR set.
 */
int dh_rename_control(const char *file, const char *text, size_t len,
                      const char *source, const struct dh_rename_set *set,
                      char **out, struct dpkg_error *err);

/*
 * TEXT of debian/files (FILE) with the entries of the packages of SET (and
 * their -dbgsym) renamed: "NAME_VERSION_ARCH.deb SECTION PRIORITY ..."
 * becomes "extras-NAME_VERSION_ARCH.deb ...", the .deb dpkg-deb writes
 * from the renamed control.  Other lines stay.  A new string in *OUT, or
 * -1 with ERR set.
 */
int dh_rename_files_list(const char *file, const char *text, size_t len,
                         const struct dh_rename_set *set, char **out,
                         struct dpkg_error *err);

/*
 * In the staging directory PKGDIR, the package's own documentation
 * directory usr/share/doc/NAME and lintian overrides
 * usr/share/lintian/overrides/NAME, of every NAME of SET, take the extras
 * name the package will have, where the gate wants them: debhelper made
 * them under the maintainer's names.  A link dh_installdocs --link-doc
 * made to a package of SET points to its extras name.  What an earlier
 * run left under the extras name takes what came since (dh_link's links
 * in usr/share/doc/NAME).  Returns 0, or -1 with ERR set.
 */
int dh_rename_doc_dirs(const char *pkgdir, const struct dh_rename_set *set,
                       struct dpkg_error *err);

/*
 * A file_rewrite() transformation (base/file-rewrite.h) of a lintian
 * overrides file: each line naming the package NAME ("NAME: tag", "NAME
 * binary: tag") names its extras name; NULL when no line does.
 */
char *dh_rename_override_lines(const char *text, size_t len, size_t *outlen,
                               void *name);

/*
 * What dh_extras_rename does (run by dh after dh_gencontrol): the
 * DEBIAN/control of each package H acts on, and of its -dbgsym, renamed
 * as dh_rename_control() says, knowing the names every package of the
 * source provides; then, when H acts on any package, debian/files.  A
 * file that does not exist is left so.  Returns 0, or -1 with one line
 * in ERR.
 */
int dh_rename(const struct dh_helper *h, struct dpkg_error *err);

#endif
