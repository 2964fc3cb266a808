/*
 * review-conffiles.c: the conffiles a package registers are its own.
 *
 * dpkg reads DEBIAN/conffiles line by line (deb_parse_conffiles in
 * src/main/unpack.c): an absolute path, or a flag, a space and the path;
 * the only flag is "remove-on-upgrade".  A plain conffile is registered as
 * the package's whatever it ships, and a remove-on-upgrade one is removed
 * (or renamed to .dpkg-old) on upgrade when no other package owns it: a
 * plain conffile must be a regular file the package ships, a
 * remove-on-upgrade one a path inside the namespace that it does not ship
 * (dpkg refuses that).  Paths are checked as written, so each must be
 * canonical ("/x/y", not "//x/./y/").
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

#define CONFFILES "conffiles"
#define REMOVE_ON_UPGRADE "remove-on-upgrade"

static int
compare_members(const void *a, const void *b)
{
	const struct debfile_member *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

/* The members of DEB sorted by path, for bsearch. */
static const struct debfile_member **
sorted_members(const struct debfile *deb)
{
	const struct debfile_member **v = calloc(deb->nmembers + 1,
	                                         sizeof(*v));
	size_t i;

	if (v == NULL)
		abort();
	for (i = 0; i < deb->nmembers; i++)
		v[i] = &deb->members[i];
	qsort(v, deb->nmembers, sizeof(*v), compare_members);
	return v;
}

/* The member PATH of DEB (V: its members sorted), or NULL. */
static const struct debfile_member *
find_member(const struct debfile *deb, const struct debfile_member **v,
            const char *path)
{
	struct debfile_member key = { .path = (char *)path };
	const struct debfile_member *k = &key, **found;

	found = bsearch(&k, v, deb->nmembers, sizeof(*v), compare_members);
	return found ? *found : NULL;
}

struct conffile_line {
	char *name;		/* as written, from its '/' */
	bool remove_on_upgrade;
	size_t line;
};

static int
compare_lines(const void *a, const void *b)
{
	const struct conffile_line *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/*
 * Parse LINE (LEN bytes, without its newline) of the conffiles; returns 0
 * with C filled, 1 for a blank line, -1 with *WHY.
 */
static int
parse_line(const char *line, size_t len, struct conffile_line *c,
           const char **why)
{
	const char *name = line;

	while (len > 0 && isspace((unsigned char)line[len - 1]))
		len--;
	if (len == 0)
		return 1;
	if (line[0] != '/') {
		const char *space = memchr(line, ' ', len);

		if (space == NULL || space[1] != '/') {
			*why = "not an absolute path, nor a flag and one";
			return -1;
		}
		if ((size_t)(space - line) != strlen(REMOVE_ON_UPGRADE) ||
		    memcmp(line, REMOVE_ON_UPGRADE, space - line) != 0) {
			*why = "unknown flag (only " REMOVE_ON_UPGRADE ")";
			return -1;
		}
		c->remove_on_upgrade = true;
		name = space + 1;
		len -= name - line;
	}
	c->name = strndup(name, len);
	if (c->name == NULL)
		abort();
	return 0;
}

static void
check_conffile(struct review *r, size_t i,
               const struct debfile_member **members,
               const struct conffile_line *c)
{
	const struct review_package *p = &r->packages[i];
	const struct debfile_member *m = NULL;
	const char *why = NULL;
	char *path = debfile_path(c->name, &why);
	size_t n = p->namespace_ok ? strlen(p->ns.rel) : 0;

	if (path != NULL)
		m = find_member(&p->deb, members, path);

	if (path == NULL || c->name[1] == '/' || strcmp(path, c->name + 1) != 0)
		review_problem(r, i, "conffile", c->name, "DEBIAN/" CONFFILES
		               ":%zu: not a canonical path", c->line);
	else if (!c->remove_on_upgrade && (m == NULL || m->type != DEBFILE_REGULAR))
		review_problem(r, i, "conffile", c->name, "DEBIAN/" CONFFILES
		               ":%zu: not a regular file %s ships: a conffile "
		               "must be the package's own", c->line,
		               p->deb.package);
	else if (c->remove_on_upgrade && m != NULL)
		review_problem(r, i, "conffile", c->name, "DEBIAN/" CONFFILES
		               ":%zu: " REMOVE_ON_UPGRADE " of a path the "
		               "package ships", c->line);
	else if (c->remove_on_upgrade && p->namespace_ok &&
	         (strncmp(path, p->ns.rel, n) != 0 || path[n] != '/'))
		review_problem(r, i, "conffile", c->name, "DEBIAN/" CONFFILES
		               ":%zu: " REMOVE_ON_UPGRADE " outside the "
		               "namespace %s: dpkg would remove or rename a "
		               "file that is not the package's", c->line,
		               p->ns.path);
	free(path);
}

static void
check_package(struct review *r, size_t i)
{
	const struct debfile *deb = &r->packages[i].deb;
	const struct debfile_control_member *cm;
	const struct debfile_member **members;
	const char *text, *end, *why;
	struct conffile_line *lines = NULL;
	size_t n = 0, j, line = 0;

	cm = debfile_control_member(deb, CONFFILES);
	if (cm == NULL || cm->data == NULL)
		return;
	text = cm->data;
	end = text + cm->size;
	if (memchr(text, '\0', cm->size) != NULL) {
		review_problem(r, i, "conffile", "DEBIAN/" CONFFILES, "holds a "
		               "NUL byte");
		return;
	}
	if (cm->size > 0 && end[-1] != '\n') {
		review_problem(r, i, "conffile", "DEBIAN/" CONFFILES, "does not "
		               "end with a newline (dpkg refuses it)");
		return;
	}
	members = sorted_members(deb);
	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		struct conffile_line c = { .line = ++line };
		int rc = parse_line(text, nl - text, &c, &why);

		text = nl + 1;
		if (rc < 0)
			review_problem(r, i, "conffile", "DEBIAN/" CONFFILES,
			               "line %zu: %s", line, why);
		if (rc != 0)
			continue;
		check_conffile(r, i, members, &c);
		lines = realloc(lines, (n + 1) * sizeof(*lines));
		if (lines == NULL)
			abort();
		lines[n++] = c;
	}
	qsort(lines, n, sizeof(*lines), compare_lines);
	for (j = 1; j < n; j++)
		if (strcmp(lines[j].name, lines[j - 1].name) == 0)
			review_problem(r, i, "conffile", lines[j].name, "DEBIAN/"
			               CONFFILES ":%zu: listed twice",
			               lines[j].line);
	for (j = 0; j < n; j++)
		free(lines[j].name);
	free(lines);
	free(members);
}

void
review_conffiles(struct review *r)
{
	size_t i;

	for (i = 0; i < r->npackages; i++)
		check_package(r, i);
}
