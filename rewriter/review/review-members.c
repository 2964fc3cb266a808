/*
 * review-members.c: the members of each archive as dpkg reads them: one
 * member a path, hard links only to the package's own files, every file
 * root's.  dpkg refuses a whole package holding a member whose name has
 * a newline ("newline not allowed in archive object name"), which its
 * list of files could not hold: so does the gate.
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
 *
 * Two packages of one source that ship the same path (not a directory)
 * do not install together: dpkg refuses to overwrite one package's file
 * with another's ("trying to overwrite"), unless one Replaces the other;
 * and one that Conflicts with the other is never installed beside it.
 * Each package may pass alone, so this is judged across them.
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "debian/relation.h"
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
	else if (p->namespace_ok && (strncmp(m->path, p->ns.rel, n) != 0 ||
	                             m->path[n] != '/'))
		/* dpkg makes it with link(2): across file systems (/usr
		 * and /opt) the install fails. */
		review_problem(r, i, "hardlink", m->path, "=> /%s: a hard "
		               "link outside the namespace %s to a file in it, "
		               "which dpkg cannot make where they are different "
		               "file systems: ship a copy", m->target,
		               p->ns.path);
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

/* Whether version text V (N bytes) is satisfied by VERSION, as OP says. */
static bool
satisfies(const char *version, const char *op, const char *v, size_t n)
{
	static const struct { const char *op; enum dpkg_relation rel; } ops[] = {
		{ "<<", DPKG_RELATION_LT }, { "<=", DPKG_RELATION_LE },
		{ "=", DPKG_RELATION_EQ }, { ">=", DPKG_RELATION_GE },
		{ ">>", DPKG_RELATION_GT },
		/* Obsolete forms: dpkg reads them as <= and >=. */
		{ "<", DPKG_RELATION_LE }, { ">", DPKG_RELATION_GE },
	};
	struct dpkg_version a, b;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char text[256];
	size_t i;

	if (*op == '\0')
		return true;
	if (n >= sizeof(text))
		return false;
	memcpy(text, v, n);
	text[n] = '\0';
	if (parseversion(&a, version, &err) < 0 ||
	    parseversion(&b, text, &err) < 0) {
		dpkg_error_destroy(&err);
		return false;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(op, ops[i].op) == 0)
			return dpkg_version_relate(&a, ops[i].rel, &b);
	return false;
}

/* Whether package P's relation FIELD names package Q at its version. */
static bool
declares(const struct review_package *p, const char *field,
         const struct review_package *q)
{
	const struct deb822_field *f = deb822_find(p->deb.control, field);
	const char *name = q->deb.package;
	struct relation_list l;
	struct dpkg_error err = DPKG_ERROR_INIT;
	bool found = false;
	int j, a;

	/* A malformed field is review-control.c's to report. */
	if (f == NULL || relation_parse(&l, f->value, strlen(f->value),
	                                "control", f->line, f->name,
	                                &err) < 0) {
		dpkg_error_destroy(&err);
		return false;
	}
	for (j = 0; j < l.nitems && !found; j++)
		for (a = 0; a < l.items[j].nalts && !found; a++) {
			const struct relation_alt *alt = &l.items[j].alts[a];

			found = alt->name_len == strlen(name) &&
			        strncmp(f->value + alt->name, name,
			                alt->name_len) == 0 &&
			        q->deb.version != NULL &&
			        satisfies(q->deb.version, alt->op,
			                  f->value + alt->version,
			                  alt->version_len);
		}
	relation_list_free(&l);
	return found;
}

/* A member of any package under review: its path, package and index. */
struct shipped {
	const char *path;
	size_t package, index;
};

static int
compare_shipped(const void *a, const void *b)
{
	const struct shipped *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c != 0)
		return c;
	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Whether dpkg refuses a member of type B where another package's of type
 * A is: directories are shared, and a link over a directory (or a
 * directory over a link) is kept as a directory, which review-links.c
 * judges; anything else is overwritten, which dpkg refuses.
 */
static bool
clash(enum debfile_type a, enum debfile_type b)
{
	if (a == DEBFILE_DIRECTORY)
		return b != DEBFILE_DIRECTORY && b != DEBFILE_SYMLINK;
	if (b == DEBFILE_DIRECTORY)
		return a != DEBFILE_SYMLINK;
	return true;
}

/*
 * Each path that two packages of one source ship so that dpkg will not
 * install both, reported on the later one: one sort of every member.
 */
static void
check_shared_paths(struct review *r)
{
	struct shipped *v;
	size_t n = 0, i, j, k, a, b;

	for (i = 0; i < r->npackages; i++)
		n += r->packages[i].deb.nmembers;
	v = calloc(n + 1, sizeof(*v));
	if (v == NULL)
		abort();
	n = 0;
	for (i = 0; i < r->npackages; i++)
		for (j = 0; j < r->packages[i].deb.nmembers; j++)
			v[n++] = (struct shipped){
				r->packages[i].deb.members[j].path, i, j,
			};
	qsort(v, n, sizeof(*v), compare_shipped);
	for (j = 0; j < n; j = k) {
		for (k = j + 1; k < n && strcmp(v[k].path, v[j].path) == 0; k++)
			;
		/* The first member of each package (its duplicates are
		 * check_duplicates()'s), against those of the packages
		 * before it. */
		for (b = j + 1; b < k; b++) {
			const struct review_package *pb = &r->packages[v[b].package];

			if (v[b].package == v[b - 1].package)
				continue;
			for (a = j; a < b; a++) {
				const struct review_package *pa =
					&r->packages[v[a].package];

				if ((a > j && v[a].package == v[a - 1].package) ||
				    v[a].package == v[b].package ||
				    !review_same_source(pa, pb) ||
				    !clash(pa->deb.members[v[a].index].type,
				           pb->deb.members[v[b].index].type) ||
				    declares(pb, "Replaces", pa) ||
				    declares(pa, "Replaces", pb) ||
				    declares(pb, "Conflicts", pa) ||
				    declares(pa, "Conflicts", pb))
					continue;
				review_problem(r, v[b].package, "duplicate",
				               v[b].path, "also shipped by %s, "
				               "of the same source: dpkg refuses to "
				               "install both (trying to overwrite); "
				               "ship it in one package, or declare "
				               "Replaces or Conflicts",
				               pa->deb.package);
				break;
			}
		}
	}
	free(v);
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
			if (strchr(deb->members[j].path, '\n') != NULL)
				review_problem(r, i, "member",
				               deb->members[j].path, "a newline in "
				               "the name: dpkg refuses the package "
				               "(newline not allowed in archive "
				               "object name): rename it");
			check_owner(r, i, &deb->members[j]);
			if (deb->members[j].type == DEBFILE_HARDLINK)
				check_hardlink(r, i, v, j);
		}
		free(v);
	}
	check_shared_paths(r);
}
