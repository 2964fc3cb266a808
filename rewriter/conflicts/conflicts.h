/*
 * conflicts.h: what in a binary package clashes with the archives or
 * with other apps' claims, judged as dpkg would judge installing it.
 *
 * Any binary package, extras or not.  What clashes:
 *
 * - the package name, with and without its "extras-" prefix, shipping
 *   files in an indexed archive, or claimed by another app;
 * - the app id (an extras package's source without "extras-", any other
 *   package's source), claimed by another owner;
 * - every file (not directory: dpkg shares those) that an archive package
 *   other than this one ships, unless this package Replaces or Conflicts
 *   with it (dpkg then lets it take the file over, or removes the other
 *   package first); a file where an archive has a directory; and every
 *   file outside an extras package's namespace that another app claimed.
 *
 * - an exported file named into the extras- name space ("extras-NAME.desktop")
 *   whose NAME lies in the export names of another owner's app
 *   (identity.h), and an app id sharing export names with another
 *   owner's (conflicts_check_app()).
 *
 * The namespace root of an extras package: --root when given; else the
 * ROOT for which ROOT/APP holds the most of the package's members, among
 * the prefixes namespace_check_root() accepts; else the default root.  The
 * declaration is not in the .deb, so its files are the evidence.  A
 * package that is not an extras package has no namespace: all its files
 * are exported.
 */
#ifndef DH_EXTRAS_CONFLICTS_H
#define DH_EXTRAS_CONFLICTS_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "debian/debfile.h"
#include "namespace/namespace.h"
#include "conflicts/registry.h"

enum conflict_kind {
	CONFLICT_PACKAGE,	/* a package name */
	CONFLICT_APP,		/* the app id */
	CONFLICT_FILE,		/* a file another package ships */
	CONFLICT_DIRECTORY,	/* a file where an archive has a directory */
	CONFLICT_EXPORT_NAME,	/* an app id or a file in another's names */
	CONFLICT_RESERVED,	/* an app id another program's files use */
	CONFLICT_NAME,		/* a declared bus name or component id */
};

struct conflict {
	enum conflict_kind kind;
	char *package;	/* the package checked */
	char *name;	/* the name or "/path" that clashes */
	char *archive;	/* the archive's label, or NULL for a claim */
	/* Archive packages "a,b"; the claiming app; for an app id, the
	 * archive's "/path" of that name, or what a reserved name holds. */
	char *other;
	char *owner;	/* the claim's owner, or NULL */
	/* For a declared name: the "/path" of the file that holds it. */
	char *path;
};

struct conflict_list {
	struct conflict *v;
	size_t n;
};

struct conflicts_options {
	const char *root;	/* NULL: found from the package's files */
	const char *owner;	/* NULL: any claim on the app id clashes */
	/* A store upload: an archive package of the package's own name
	 * is not its upgrade but a clash, and so are its files. */
	bool no_upgrade;
};

/* The app id of DEB, validated; NULL with ERR set. */
const char *conflicts_app(const struct debfile *deb, struct dpkg_error *err);

/* Whether DEB is an extras package (its name has the prefix). */
bool conflicts_is_extras(const struct debfile *deb);

/*
 * Fill NS for DEB (root as described above); -1 with ERR set.  For a
 * package that is not an extras package, NS->rel is "" and NS->app the
 * source name.
 */
int conflicts_namespace(const struct debfile *deb, const char *root,
                        struct extras_namespace *ns, struct dpkg_error *err);

/*
 * The members of DEB outside NS that are not directories: their indices
 * in deb->members, malloc'd, count in *N.
 */
size_t *conflicts_exports(const struct debfile *deb,
                          const struct extras_namespace *ns, size_t *n);

/* Add DEB's conflicts to LIST. */
int conflicts_check(struct registry *r, const struct debfile *deb,
                    const struct conflicts_options *opt,
                    struct conflict_list *list, struct dpkg_error *err);

/*
 * Add the clashes of binary package name NAME of APP to LIST: NAME and
 * its twin with or without "extras-" in an archive (NAME itself only when
 * it is an extras package or NO_UPGRADE), NAME claimed by another app.
 * PACKAGE names the package checked in LIST.
 */
int conflicts_check_name(struct registry *r, const char *package,
                         const char *name, const char *app, bool no_upgrade,
                         struct conflict_list *list, struct dpkg_error *err);

/*
 * Add the clashes of app id APP of OWNER (NULL: anyone's) to LIST: a
 * package of that name in an archive; a program or data directory of that
 * name in an archive (/usr/bin/APP, /usr/share/APP, /etc/APP ...), whose
 * user files would likely be named so too; a reserved id (reserved.h);
 * another owner's app sharing export names with it.  PACKAGE names the
 * package checked in LIST.
 */
int conflicts_check_app(struct registry *r, const char *package,
                        const char *app, const char *owner,
                        struct conflict_list *list, struct dpkg_error *err);

/* One line for C, without the file name: "file /x is shipped by ...". */
void conflicts_describe(const struct conflict *c, char *buf, size_t len);

const char *conflicts_kind_name(enum conflict_kind kind);

void conflict_list_destroy(struct conflict_list *list);

#endif
