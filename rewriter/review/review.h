/*
 * review.h: the review gate, one rule set for built packages (.deb,
 * .changes) and for staged trees (debian/PKG/ before dh_builddeb).
 *
 * Packages are added first, each read into a struct debfile (from the
 * archive, or from the tree and its DEBIAN/ files); review_run() then
 * applies every rule to every package, and to the packages of one source
 * together: the members as dpkg reads them, duplicates, hard links and
 * owners (review-members.c), names, relations and control fields
 * (review-control.c), files and where they live, and links followed
 * through every package of the upload (review-files.c, review-links.c),
 * conffiles (review-conffiles.c), the declaration and the profile
 * (review-profile.c), maintainer scripts (byte for byte the ones
 * dh-extras generates) and other control files (review-scripts.c), and what the app's user needs: programs, icons and
 * translations found where the entry points and the code look
 * (review-works.c).  Each violation is one problem; a package with none
 * is accepted.  The namespace root is the caller's (the store's), never
 * the package's.
 *
 *	struct review r;
 *	struct dpkg_error err = DPKG_ERROR_INIT;
 *
 *	review_init(&r, &opts);
 *	if (review_add_deb(&r, "foo.deb", &err) < 0)
 *		ohshit("%s", err.str);		// bad input: exit 2
 *	if (review_run(&r, &err) < 0)
 *		ohshit("%s", err.str);		// cannot check: exit 2
 *	review_print(&r, prefix, stderr);	// one line a problem
 *	status = r.nproblems ? 1 : 0;
 *	review_free(&r);
 */
#ifndef DH_EXTRAS_REVIEW_H
#define DH_EXTRAS_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <dpkg/error.h>

#include "debian/debfile.h"
#include "namespace/declaration.h"
#include "namespace/identity.h"
#include "namespace/namespace.h"
#include "apparmor/profile.h"

/* Where the declaration travels: a control file of every package. */
#define REVIEW_DECLARATION DECLARATION_CONTROL_MEMBER
/* Where the profile lives, relative to the package's root. */
#define REVIEW_PROFILE_DIR "etc/apparmor.d"

struct review_options {
	/* The store's namespace root; NULL: EXTRAS_DEFAULT_ROOT.  A package
	 * whose declaration names another root is refused. */
	const char *root;
	/* Accept reserved privileges in declarations: all, or those named
	 * in granted (the store's grant to this upload). */
	bool allow_reserved;
	const char *const *granted;
	size_t n_granted;
	/* The distribution the store publishes to: a .changes must name it
	 * (and never UNRELEASED); NULL: any released one. */
	const char *distribution;
	/* Compile the profile with apparmor_parser (skipped when false). */
	bool compile;
	/* Stamps of profiles that compiled before (at build time), or NULL
	 * to compile every one; see apparmor_validate_cached. */
	const char *compile_stamps;
	/* The dh-extras templates; NULL: dh_extras_datadir()/templates. */
	const char *templates;
	/* The store's identity of the upload (extras-conflicts accept), or
	 * NULL: the app id is then the store's, never the package's, and
	 * every package, its source and what it replaces must be the
	 * identity's (review-identity.c). */
	const struct identity *identity;
};

/* What the rules may hold of one package's data in memory, per kind. */
#define REVIEW_KEEP_MAX (64 << 20)

struct review_keep {
	/* .desktop, D-Bus, metainfo and GtkBuilder files kept, in bytes;
	 * OVERFLOW when some were left unread (and so unchecked). */
	size_t entry_bytes;
	bool overflow;
	/* Programs and scripts kept for review-works' locale check. */
	size_t code_bytes;
};

struct review_package {
	/* How messages name the package: "foo_1.0_all.deb", "debian/foo". */
	char *where;
	struct debfile deb;
	/* From the .changes it was listed in, or NULL. */
	const char *changes;
	/* Filled by review_run(). */
	struct declaration decl;
	bool namespace_ok;
	struct extras_namespace ns;
	char profile_name[PROFILE_NAME_MAX + 1];
	size_t nproblems;
	/* What the loader kept of the data members' contents. */
	struct review_keep keep;
};

struct review_problem {
	size_t package;		/* index into packages */
	char *rule;		/* "namespace", "profile", ... */
	char *path;		/* the member concerned, or NULL */
	char *message;
};

struct review {
	struct review_options opt;
	struct review_package *packages;
	size_t npackages;
	struct review_problem *problems;
	size_t nproblems;
	/* The .changes read, kept for the sources they name. */
	char **changes;
	size_t nchanges;
	/* The published packages the upload replaces: not reviewed, but
	 * their links stay on disk while dpkg unpacks the new ones. */
	struct debfile *previous;
	size_t nprevious;
};

void review_init(struct review *r, const struct review_options *opt);
void review_free(struct review *r);

/*
 * A new package at the end of R's list, named WHERE in messages; the
 * loaders (review-load.c, review-tree.c) fill it and count it.
 */
struct review_package *review_add_package(struct review *r,
                                          const char *where);

/* Read a .deb; returns 0, or -1 with one line in ERR (bad input). */
int review_add_deb(struct review *r, const char *path, struct dpkg_error *err);

/*
 * Read a .changes, check its files' sizes and checksums, and add every
 * .deb it lists; a .changes listing none is bad input.  Any other file it
 * lists but a .buildinfo, and a Distribution that is UNRELEASED or not
 * the store's, are problems of its first package.
 */
int review_add_changes(struct review *r, const char *path,
                       struct dpkg_error *err);

/*
 * Read a published .deb the upload replaces (an earlier version of one of
 * its packages): its symbolic links are taken into account (dpkg keeps a
 * link where the new version ships a directory, and writes through it),
 * nothing else.
 */
int review_add_previous(struct review *r, const char *path,
                        struct dpkg_error *err);

/*
 * Read a staged tree DIR (debian/PKG) and its DIR/DEBIAN/ files, as
 * dh_builddeb would pack them.
 */
int review_add_tree(struct review *r, const char *dir, struct dpkg_error *err);

/*
 * Apply every rule.  Returns 0 (problems, if any, in R), or -1 with one
 * line in ERR when something needed for a check is missing (the
 * templates, apparmor_parser).
 */
int review_run(struct review *r, struct dpkg_error *err);

/* Record a problem of package P (its index); PATH may be NULL. */
void review_problem(struct review *r, size_t p, const char *rule,
                    const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Print one line per problem: "PREFIXWHERE: RULE: [PATH: ]message". */
void review_print(const struct review *r, const char *prefix, FILE *fp);

/*
 * Write the JSON report:
 *   { "accepted": B,
 *     "packages": [ { "file", "package", "version", "source", "app",
 *                     "root", "namespace", "accepted", "problems": N } ],
 *     "problems": [ { "file", "package", "rule", "path", "message" } ] }
 * ("app", "root", "namespace" are null when the namespace is unknown,
 * "path" when the problem is not about one member).
 */
void review_write_json(const struct review *r, FILE *fp);

/* The namespace root packages are reviewed against. */
const char *review_root(const struct review *r);

/* The rules, one concern a file; each records problems in R. */
void review_members(struct review *r);
void review_control(struct review *r);
void review_files(struct review *r);
void review_conffiles(struct review *r);
int review_profile(struct review *r, struct dpkg_error *err);
int review_scripts(struct review *r, struct dpkg_error *err);
int review_works(struct review *r, struct dpkg_error *err);
void review_identity(struct review *r);

/*
 * Whether the loaders keep the content of data member M for review-works
 * (counted in K): exported entry points, GtkBuilder and metainfo files,
 * and, as far as REVIEW_KEEP_MAX goes, programs and scripts.
 */
bool review_works_keeps(const struct debfile_member *m,
                        struct review_keep *k);

/*
 * The symbolic links of the packages of one upload (every package under
 * review) and of those it replaces, by path: installed together, each
 * package's links lie on the paths of the others.
 */
struct review_link {
	const struct debfile_member *member;
	const struct debfile *deb;	/* the package shipping it */
	bool previous;			/* of a replaced package */
};

struct review_links {
	struct review_link *links;	/* sorted by path */
	size_t n;
};

void review_links_init(struct review_links *l, const struct review *r);
void review_links_free(struct review_links *l);

/* The link at PATH (relative to the root), or NULL. */
const struct review_link *review_links_find(const struct review_links *l,
                                            const char *path);

/*
 * Resolve the symbolic link M as it will be once installed, following
 * the links of L on the way (so that "a/../.." through a link "a" is not
 * taken for a path inside the namespace).  Returns a new path relative to
 * the root ("" for the root itself), or NULL after too many links.
 */
char *review_links_resolve(const struct review_links *l,
                           const struct debfile_member *m);

/* The same, through the links of DEB alone. */
char *review_resolve_link(const struct debfile *deb,
                          const struct debfile_member *m);

/* Whether package A and B come from one source (their Source fields). */
bool review_same_source(const struct review_package *a,
                        const struct review_package *b);

#endif
