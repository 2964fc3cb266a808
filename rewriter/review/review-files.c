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

#include "namespace/layout.h"
#include "review/review.h"

/* Bound the symbolic links followed while resolving one, as the kernel. */
#define SYMLINK_HOPS 40

/* Top-level directories that merged-/usr makes aliases of usr/ ones. */
static const char *const usr_aliases[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", NULL,
};

static bool
is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

static bool
is_or_under(const char *path, const char *dir)
{
	return strcmp(path, dir) == 0 || is_under(path, dir);
}

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

/* The symbolic link PATH of the package, or NULL. */
static const struct debfile_member *
find_symlink(const struct debfile *deb, const char *path)
{
	size_t i;

	for (i = 0; i < deb->nmembers; i++)
		if (deb->members[i].type == DEBFILE_SYMLINK &&
		    strcmp(deb->members[i].path, path) == 0)
			return &deb->members[i];
	return NULL;
}

/* The length of PATH's directory part ("a/b" of "a/b/c", 0 for "c"). */
static int
dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (int)(slash - path) : 0;
}

/* DIR (its first DIRLEN bytes) joined with TARGET and REST. */
static char *
join(const char *dir, int dirlen, const char *target, const char *rest)
{
	char *s;

	if (target[0] == '/')
		dirlen = 0;
	if (asprintf(&s, "%.*s/%s/%s", dirlen, dir, target, rest) < 0)
		abort();
	return s;
}

char *
review_resolve_link(const struct debfile *deb, const struct debfile_member *m)
{
	char *todo = join(m->path, dir_len(m->path), m->target, "");
	int hops = 0;

	for (;;) {
		char *out = calloc(1, strlen(todo) + 1), *p = todo, *next;
		const struct debfile_member *link = NULL;
		size_t len = 0;

		if (out == NULL)
			abort();
		while (*p && link == NULL) {
			size_t n = strcspn(p, "/");

			if (n == 2 && p[0] == '.' && p[1] == '.') {
				char *last = strrchr(out, '/');

				len = last ? (size_t)(last - out) : 0;
				out[len] = '\0';
			} else if (n > 0 && !(n == 1 && p[0] == '.')) {
				if (len > 0)
					out[len++] = '/';
				memcpy(out + len, p, n);
				len += n;
				out[len] = '\0';
				link = find_symlink(deb, out);
			}
			p += n + (p[n] == '/');
		}
		if (link == NULL) {
			free(todo);
			return out;
		}
		/* OUT is a link of the package: go on from its target. */
		next = ++hops > SYMLINK_HOPS ? NULL :
		       join(out, dir_len(out), link->target, p);
		free(todo);
		free(out);
		if (next == NULL)
			return NULL;
		todo = next;
	}
}

/* Whether a link may lead to TARGET (resolved, relative to the root). */
static bool
link_target_allowed(const struct review_package *p, const char *target)
{
	int i;

	if (is_or_under(target, p->ns.rel))
		return true;
	if (is_or_under(target, "usr/local"))
		return false;
	if (is_under(target, "usr"))
		return true;
	for (i = 0; usr_aliases[i]; i++)
		if (is_under(target, usr_aliases[i]))
			return true;
	return false;
}

static void
check_symlink(struct review *r, size_t i, const struct debfile_member *m)
{
	const struct review_package *p = &r->packages[i];
	char *target = review_resolve_link(&p->deb, m);

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

/* The exports that must belong to this package by name. */
static bool
own_export(const struct review_package *p, const char *path)
{
	static const char *const dirs[] = {
		"usr/share/doc", "usr/share/lintian/overrides", NULL,
	};
	char own[PATH_MAX];
	int i;

	for (i = 0; dirs[i]; i++) {
		if (!is_under(path, dirs[i]))
			continue;
		snprintf(own, sizeof(own), "%s/%s", dirs[i], p->deb.package);
		return is_or_under(path, own);
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
	if (is_under(m->path, REVIEW_PROFILE_DIR)) {
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
	case LAYOUT_ABOVE:
		return;
	case LAYOUT_EXPORT:
		if (!own_export(p, m->path))
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

void
review_files(struct review *r)
{
	size_t i, j;

	for (i = 0; i < r->npackages; i++) {
		const struct review_package *p = &r->packages[i];

		for (j = 0; j < p->deb.nmembers; j++) {
			const struct debfile_member *m = &p->deb.members[j];

			check_mode(r, i, m);
			if (!p->namespace_ok)
				continue;
			check_place(r, i, m);
			if (m->type == DEBFILE_SYMLINK)
				check_symlink(r, i, m);
		}
	}
}
