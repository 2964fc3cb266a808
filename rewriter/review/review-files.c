/*
 * review-files.c: every file in the namespace or an export, no special
 * modes or files, no symbolic link leading out.
 *
 * Where a file may be is decided by layout_place(), the definition the
 * rewriter moves and exports files by, so the gate refuses exactly what
 * the rewriter would have moved.  On top: the documentation and lintian
 * overrides must be the package's own, and the only file under
 * etc/apparmor.d is the app's profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path.h"
#include "namespace/layout.h"
#include "review/review.h"

/* Top-level directories that merged-/usr makes aliases of usr/ ones. */
static const char *const usr_aliases[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", NULL,
};

static const char *
special_kind(mode_t st_mode)
{
	if (S_ISCHR(st_mode))
		return "a character device";
	if (S_ISBLK(st_mode))
		return "a block device";
	if (S_ISFIFO(st_mode))
		return "a FIFO";
	if (S_ISSOCK(st_mode))
		return "a socket";
	return "a special file";
}

static void
check_mode(struct review *r, size_t i, const struct debfile_member *m)
{
	if (m->type == DEBFILE_SPECIAL)
		review_problem(r, i, "special", m->path, "is %s",
		               special_kind(m->st_mode));
	if (m->mode & S_ISUID)
		review_problem(r, i, "mode", m->path, "is setuid (mode %04o)",
		               (unsigned)m->mode);
	if (m->mode & S_ISGID)
		review_problem(r, i, "mode", m->path, "is setgid (mode %04o)",
		               (unsigned)m->mode);
	if (m->type != DEBFILE_SYMLINK && (m->mode & S_IWOTH))
		review_problem(r, i, "mode", m->path, "is world-writable "
		               "(mode %04o)", (unsigned)m->mode);
}

/* Whether a link may lead to TARGET (resolved, relative to the root). */
static bool
link_target_allowed(const struct review_package *p, const char *target)
{
	int i;

	if (path_is_or_under(target, p->ns.rel))
		return true;
	if (path_is_or_under(target, "usr/local"))
		return false;
	if (path_is_under(target, "usr"))
		return true;
	for (i = 0; usr_aliases[i]; i++)
		if (path_is_under(target, usr_aliases[i]))
			return true;
	return false;
}

static void
check_symlink(struct review *r, size_t i, const struct review_links *links,
              const struct debfile_member *m)
{
	const struct review_package *p = &r->packages[i];
	char *target = review_links_resolve(links, m);

	if (target == NULL) {
		review_problem(r, i, "symlink", m->path, "-> %s: too many "
		               "levels of symbolic links", m->target);
		return;
	}
	if (!link_target_allowed(p, target))
		review_problem(r, i, "symlink", m->path, "-> %s resolves to "
		               "/%s, outside the namespace %s and /usr",
		               m->target, target, p->ns.path);
	free(target);
}

/*
 * Whether PATH, under usr/share/doc/MAIN, is the documentation of package
 * I named MAIN-doc: debhelper (compat 11 on) installs a -doc package's
 * files in the directory of its main package of the same source (m4-doc's
 * HTML manual in usr/share/doc/m4).  MAIN must be under review with it,
 * of the same source: alone, any uploader's X-doc could write into
 * another app's documentation directory.
 */
static bool
main_package_docs(const struct review *r, size_t i, const char *path)
{
	const struct review_package *p = &r->packages[i];
	const char *docs = "usr/share/doc/", *main;
	size_t n, plen = strlen(p->deb.package), j;

	if (strncmp(path, docs, strlen(docs)) != 0)
		return false;
	main = path + strlen(docs);
	n = strcspn(main, "/");
	if (n == 0 || plen != n + 4 || strncmp(p->deb.package, main, n) != 0 ||
	    strcmp(p->deb.package + n, "-doc") != 0)
		return false;
	for (j = 0; j < r->npackages; j++) {
		const struct review_package *q = &r->packages[j];

		if (strlen(q->deb.package) == n &&
		    strncmp(q->deb.package, main, n) == 0)
			return review_same_source(p, q);
	}
	return false;
}

/* The exports that must belong to this package by name. */
static bool
own_export(const struct review *r, size_t i, const char *path)
{
	static const char *const dirs[] = {
		"usr/share/doc", "usr/share/lintian/overrides", NULL,
	};
	const struct review_package *p = &r->packages[i];
	char own[PATH_MAX];
	int k;

	for (k = 0; dirs[k]; k++) {
		if (!path_is_under(path, dirs[k]))
			continue;
		snprintf(own, sizeof(own), "%s/%s", dirs[k], p->deb.package);
		return path_is_or_under(path, own) ||
		       (k == 0 && main_package_docs(r, i, path));
	}
	return true;
}

static void
check_place(struct review *r, size_t i, const struct debfile_member *m)
{
	const struct review_package *p = &r->packages[i];
	bool is_dir = m->type == DEBFILE_DIRECTORY;
	struct layout_place place;
	char profile[PATH_MAX];

	snprintf(profile, sizeof(profile), REVIEW_PROFILE_DIR "/%s",
	         p->profile_name);
	if (path_is_under(m->path, REVIEW_PROFILE_DIR)) {
		if (strcmp(m->path, profile) != 0 || is_dir)
			review_problem(r, i, "namespace", m->path, "only the "
			               "app's profile %s may be installed in /"
			               REVIEW_PROFILE_DIR, profile);
		return;
	}
	if (layout_place(&p->ns, m->path, is_dir, &place) < 0) {
		review_problem(r, i, "namespace", m->path, "path too long");
		return;
	}
	switch (place.kind) {
	case LAYOUT_NAMESPACE:
		return;
	case LAYOUT_ABOVE:
		/* Every app installs below it, through a link too. */
		if (!is_dir)
			review_problem(r, i, "namespace", m->path, "lies above "
			               "the namespace %s and is not a directory: "
			               "what other apps install below it would "
			               "go where it leads", p->ns.path);
		return;
	case LAYOUT_EXPORT:
		if (!own_export(r, i, m->path))
			review_problem(r, i, "namespace", m->path, "belongs to "
			               "another package: an export must be %s's "
			               "own", p->deb.package);
		else if (strcmp(place.dest, m->path) != 0)
			review_problem(r, i, "export", m->path, "exported "
			               "without its extras- name (/%s)",
			               place.dest);
		return;
	case LAYOUT_MOVE:
		if (is_dir && layout_is_shared_dir(m->path))
			return;
		review_problem(r, i, "namespace", m->path, "is outside the "
		               "namespace %s and not an export (it belongs "
		               "in /%s)", p->ns.path, place.dest);
		return;
	}
}

/*
 * Whether M lies below a symbolic link of the upload that leads out of
 * the namespace: dpkg creates links last, so a package's own members are
 * written below the directory it also ships as a link, but those of the
 * next package unpacked, or of the next version, go through it.
 */
static void
check_below_link(struct review *r, size_t i, const struct review_links *links,
                 const struct debfile_member *m)
{
	const struct review_package *p = &r->packages[i];
	char *path = strdup(m->path), *slash;

	if (path == NULL)
		abort();
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		const struct review_link *link;
		char *target;

		*slash = '\0';
		link = review_links_find(links, path);
		if (link == NULL) {
			*slash = '/';
			continue;
		}
		target = review_links_resolve(links, link->member);
		if (target == NULL || !path_is_or_under(target, p->ns.rel))
			review_problem(r, i, "symlink", m->path, "lies below "
			               "/%s, a symbolic link of %s%s to %s%s: "
			               "dpkg would write through it, outside the "
			               "namespace %s", path, link->deb->package,
			               link->previous ? " (replaced)" : "",
			               target ? "/" : "", target ? target :
			               "a loop", p->ns.path);
		free(target);
		break;
	}
	free(path);
}

void
review_files(struct review *r)
{
	struct review_links links;
	size_t i, j;

	review_links_init(&links, r);
	for (i = 0; i < r->npackages; i++) {
		const struct review_package *p = &r->packages[i];

		for (j = 0; j < p->deb.nmembers; j++) {
			const struct debfile_member *m = &p->deb.members[j];

			check_mode(r, i, m);
			if (!p->namespace_ok)
				continue;
			check_place(r, i, m);
			check_below_link(r, i, &links, m);
			if (m->type == DEBFILE_SYMLINK)
				check_symlink(r, i, &links, m);
		}
	}
	review_links_free(&links);
}
