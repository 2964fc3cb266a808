/*
 * conflicts.h: what in a binary package clashes with the archives or
 * with other apps' claims.
 *
 * The namespace (ROOT/APP) cannot clash: it is the app's own.  What can:
 *
 * - the package name, with and without its "extras-" prefix, shipping
 *   files in an indexed archive, or claimed by another app;
 * - the app id, claimed by another owner;
 * - every file outside the namespace (the exports: .desktop files, icons,
 *   docs, the AppArmor profile, and whatever else the package ships there)
 *   that another app already claimed, or, among those the review gate can
 *   accept (contents_is_export()), that an archive package ships: the
 *   archive indices keep no other path, and the gate refuses any other
 *   file outside the namespace whatever the archives hold.  Directories
 *   are shared and never clash.  A file an archive lists for this very
 *   package (an upgrade) does not clash either.
 *
 * The namespace root of a package: --root when given; else the ROOT for
 * which ROOT/APP holds the most of the package's members, among the
 * prefixes namespace_check_root() accepts; else the default root.  The
 * declaration is not in the .deb, so its files are the evidence.
 */
#ifndef DH_EXTRAS_CONFLICTS_H
#define DH_EXTRAS_CONFLICTS_H

#include <stddef.h>

#include <dpkg/error.h>

#include "debian/debfile.h"
#include "namespace/namespace.h"
#include "conflicts/registry.h"

enum conflict_kind {
	CONFLICT_PACKAGE,	/* a package name */
	CONFLICT_APP,		/* the app id */
	CONFLICT_FILE,		/* an exported path */
};

struct conflict {
	enum conflict_kind kind;
	char *package;	/* the package checked */
	char *name;	/* the name or "/path" that clashes */
	char *archive;	/* the archive's label, or NULL for a claim */
	char *other;	/* archive packages "a,b", or the claiming app */
	char *owner;	/* the claim's owner, or NULL */
};

struct conflict_list {
	struct conflict *v;
	size_t n;
};

struct conflicts_options {
	const char *root;	/* NULL: found from the package's files */
	const char *owner;	/* NULL: any claim on the app id clashes */
};

/* The app id of DEB, validated; NULL with ERR set. */
const char *conflicts_app(const struct debfile *deb, struct dpkg_error *err);

/* Fill NS for DEB (root as described above); -1 with ERR set. */
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

/* One line for C, without the file name: "file /x is shipped by ...". */
void conflicts_describe(const struct conflict *c, char *buf, size_t len);

const char *conflicts_kind_name(enum conflict_kind kind);

void conflict_list_destroy(struct conflict_list *list);

#endif
