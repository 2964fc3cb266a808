/*
 * review-members.c: the members of each archive as dpkg reads them: one
 * member a path, hard links only to the package's own files, every file
 * root's.
 *
 * dpkg takes "./x", "x", "/x" and "x/" for one path and keeps the last of
 * several members (in control.tar, the control file it acts on; in
 * data.tar, the file it installs), while every check here reads the
 * first: a path shipped twice is refused.  A hard link is made with
 * link(2) to its target as installed, and dpkg then applies the link
 * member's owner and mode to that inode: a target must be a regular file
 * shipped earlier in the same data.tar, inside the namespace.  dpkg gives
 * a member the owner its tar header names (by name when the system knows
 * it, else by id): every member must be root's.
 */
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

/* A member's path and its place in the archive, sorted by path. */
struct by_path {
	const char *path;
	size_t index;
};

static int
compare_by_path(const void *a, const void *b)
{
	const struct by_path *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c != 0)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static struct by_path *
sort_data(const struct debfile *deb)
{
	struct by_path *v = calloc(deb->nmembers + 1, sizeof(*v));
	size_t i;

	if (v == NULL)
		abort();
	for (i = 0; i < deb->nmembers; i++) {
		v[i].path = deb->members[i].path;
		v[i].index = i;
	}
	qsort(v, deb->nmembers, sizeof(*v), compare_by_path);
	return v;
}

/* The first member named PATH in V (N sorted entries), or NULL. */
static const struct by_path *
first_named(const struct by_path *v, size_t n, const char *path)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(v[lo].path, path) == 0 ? &v[lo] : NULL;
}

/* Report each path of V (N sorted entries) held by more than one member. */
static void
check_duplicates(struct review *r, size_t i, const struct by_path *v,
                 size_t n, const char *archive)
{
	size_t j, k;

	for (j = 0; j < n; j = k) {
		for (k = j + 1; k < n && strcmp(v[k].path, v[j].path) == 0; k++)
			;
		if (k - j > 1)
			review_problem(r, i, "duplicate", *v[j].path ?
			               v[j].path : ".", "%zu members of %s for "
			               "this path (the checks read the first, "
			               "dpkg keeps the last)", k - j, archive);
	}
}

static void
check_control_duplicates(struct review *r, size_t i)
{
	const struct debfile *deb = &r->packages[i].deb;
	struct by_path *v = calloc(deb->ncontrol_members + 1, sizeof(*v));
	size_t j;

	if (v == NULL)
		abort();
	for (j = 0; j < deb->ncontrol_members; j++) {
		v[j].path = deb->control_members[j].name;
		v[j].index = j;
	}
	qsort(v, deb->ncontrol_members, sizeof(*v), compare_by_path);
	check_duplicates(r, i, v, deb->ncontrol_members, deb->control_tar);
	free(v);
}

static void
check_hardlink(struct review *r, size_t i, const struct by_path *v,
               size_t j)
{
	const struct review_package *p = &r->packages[i];
	const struct debfile_member *m = &p->deb.members[j];
	const struct by_path *t = first_named(v, p->deb.nmembers, m->target);
	size_t n = p->namespace_ok ? strlen(p->ns.rel) : 0;

	if (t == NULL || t->index > j ||
	    p->deb.members[t->index].type != DEBFILE_REGULAR)
		review_problem(r, i, "hardlink", m->path, "=> /%s: not a "
		               "regular file shipped before it in %s",
		               m->target, p->deb.data_tar);
	else if (p->namespace_ok && (strncmp(m->target, p->ns.rel, n) != 0 ||
	                             m->target[n] != '/'))
		review_problem(r, i, "hardlink", m->path, "=> /%s: a hard "
		               "link to a file outside the namespace %s",
		               m->target, p->ns.path);
}

static bool
is_root(const char *name, int64_t id)
{
	return id == 0 && (name[0] == '\0' || strcmp(name, "root") == 0);
}

static void
check_owner(struct review *r, size_t i, const struct debfile_member *m)
{
	if (is_root(m->owner, m->uid) && is_root(m->group, m->gid))
		return;
	review_problem(r, i, "owner", m->path, "is owned by %s:%s "
	               "(%lld:%lld), not root", *m->owner ? m->owner : "-",
	               *m->group ? m->group : "-", (long long)m->uid,
	               (long long)m->gid);
}

void
review_members(struct review *r)
{
	size_t i, j;

	for (i = 0; i < r->npackages; i++) {
		const struct debfile *deb = &r->packages[i].deb;
		struct by_path *v = sort_data(deb);

		check_control_duplicates(r, i);
		check_duplicates(r, i, v, deb->nmembers, deb->data_tar);
		for (j = 0; j < deb->nmembers; j++) {
			check_owner(r, i, &deb->members[j]);
			if (deb->members[j].type == DEBFILE_HARDLINK)
				check_hardlink(r, i, v, j);
		}
		free(v);
	}
}
