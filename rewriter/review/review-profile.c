/*
 * review-profile.c: the profile is present, is exactly the one the
 * declaration yields, compiles, and lists every executable.
 *
 * The package carries its declaration (the control file extras.yaml), so
 * the profile is generated again here, with the same templates and the
 * executables its header lists, and compared byte for byte: a profile
 * edited by hand, or generated from another declaration, is refused.  The
 * profile attaches to the whole namespace, so it confines every
 * executable there; the header must still list each one the packages of
 * the source install, as dh_extras_apparmor writes it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apparmor/apparmor-install.h"
#include "base/datadir.h"
#include "base/strings.h"
#include "review/review.h"

/* The profile member of package P, or NULL. */
static const struct debfile_member *
find_profile(const struct review_package *p)
{
	char path[PROFILE_NAME_MAX + 32];
	size_t i;

	snprintf(path, sizeof(path), REVIEW_PROFILE_DIR "/%s",
	         p->profile_name);
	for (i = 0; i < p->deb.nmembers; i++)
		if (strcmp(p->deb.members[i].path, path) == 0)
			return &p->deb.members[i];
	return NULL;
}

static bool
is_executable(const struct review_package *p, const struct debfile_member *m)
{
	size_t n = strlen(p->ns.rel);

	return (m->type == DEBFILE_REGULAR || m->type == DEBFILE_HARDLINK) &&
	       (m->mode & 0111) && strncmp(m->path, p->ns.rel, n) == 0 &&
	       m->path[n] == '/';
}

/* The executables the header of profile TEXT lists ("#   /path"). */
static size_t
listed_executables(const char *text, char ***list)
{
	const char *line = text;
	size_t n = 0;

	*list = NULL;
	while (*line == '#') {
		size_t len = strcspn(line, "\n");

		if (len > 4 && strncmp(line, "#   /", 5) == 0) {
			*list = realloc(*list, (n + 1) * sizeof(char *));
			if (*list == NULL ||
			    ((*list)[n++] = strndup(line + 4, len - 4)) == NULL)
				abort();
		}
		line += len + (line[len] == '\n');
	}
	return n;
}

static bool
is_listed(char **list, size_t n, const char *rel)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i] + 1, rel) == 0)
			return true;
	return false;
}

static int
first_difference(const char *a, const char *b)
{
	int line = 1;

	for (; *a && *a == *b; a++, b++)
		if (*a == '\n')
			line++;
	return line;
}

/* Compile TEXT with apparmor_parser; returns 0, -1 with ERR. */
static int
compile_profile(const struct review *r, const char *text,
                struct dpkg_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	char path[4096], features[4096 + 64];
	size_t len = strlen(text);
	int fd, ret;

	if (r->opt.templates != NULL)
		snprintf(features, sizeof(features), "%s/" APPARMOR_FEATURES,
		         r->opt.templates);
	else
		snprintf(features, sizeof(features), "%s/templates/"
		         APPARMOR_FEATURES, dh_extras_datadir());
	/* A build's profile dh_extras_apparmor compiled: no file to write. */
	if (apparmor_validated_before(text, len, features,
	                              r->opt.compile_stamps))
		return 0;
	snprintf(path, sizeof(path), "%s/extras-review.XXXXXX",
	         tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		dpkg_put_error(err, "cannot create %s: %s", path,
		               strerror(errno));
		return -1;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		dpkg_put_error(err, "cannot write %s: %s", path,
		               strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	ret = apparmor_validate_cached(path, features, r->opt.compile_stamps,
	                               err);
	unlink(path);
	return ret;
}

/*
 * Check the profile M of package I; the executables it lists are
 * returned in LIST for the coverage check.
 */
static void
check_profile(struct review *r, size_t i, const struct debfile_member *m,
              char ***list, size_t *n)
{
	const struct review_package *p = &r->packages[i];
	struct profile_request req = { 0 };
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = NULL;
	size_t len;

	*n = 0;
	*list = NULL;
	if (m->type != DEBFILE_REGULAR || m->data == NULL) {
		review_problem(r, i, "profile", m->path, "not a regular file "
		               "of a profile's size, or not the only file in /"
		               REVIEW_PROFILE_DIR);
		return;
	}
	*n = listed_executables(m->data, list);
	req.ns = &p->ns;
	req.declaration = &p->decl;
	req.executables = (const char *const *)*list;
	req.n_executables = *n;
	req.allow_reserved = r->opt.allow_reserved;
	req.granted = r->opt.granted;
	req.n_granted = r->opt.n_granted;
	req.templates = r->opt.templates;
	if (profile_generate(&req, &text, &len, &err) < 0) {
		review_problem(r, i, "profile", m->path, "cannot be generated "
		               "again: %s", err.str);
		dpkg_error_destroy(&err);
		return;
	}
	if (len != (size_t)m->size || memcmp(text, m->data, len) != 0)
		review_problem(r, i, "profile", m->path, "differs from the "
		               "profile the declaration yields (from line %d)",
		               first_difference(text, m->data));
	else if (r->opt.compile && compile_profile(r, text, &err) < 0)
		review_problem(r, i, "profile", m->path, "does not compile: "
		               "%s", err.str);
	dpkg_error_destroy(&err);
	free(text);
}

/* The packages of the source of package FIRST, from FIRST on. */
static void
check_source(struct review *r, size_t first, bool *done)
{
	const struct review_package *owner = NULL;
	char **list = NULL;
	size_t n = 0, i, j, profiles = 0;

	for (i = first; i < r->npackages; i++) {
		const struct review_package *p = &r->packages[i];
		const struct debfile_member *m;

		if (!review_same_source(&r->packages[first], p))
			continue;
		done[i] = true;
		if (!p->namespace_ok || (m = find_profile(p)) == NULL)
			continue;
		if (profiles++ > 0) {
			review_problem(r, i, "profile", m->path, "also shipped by "
			               "%s", owner->deb.package);
			continue;
		}
		owner = p;
		check_profile(r, i, m, &list, &n);
	}
	for (i = first; i < r->npackages; i++) {
		const struct review_package *p = &r->packages[i];

		if (!review_same_source(&r->packages[first], p) ||
		    !p->namespace_ok)
			continue;
		for (j = 0; j < p->deb.nmembers; j++) {
			const struct debfile_member *m = &p->deb.members[j];

			if (!is_executable(p, m))
				continue;
			if (owner == NULL)
				review_problem(r, i, "profile", m->path, "an "
				               "executable, and no package of %s "
				               "ships the profile /"
				               REVIEW_PROFILE_DIR "/%s",
				               p->deb.source, p->profile_name);
			else if (!is_listed(list, n, m->path))
				review_problem(r, i, "profile", m->path, "an "
				               "executable the profile of %s does "
				               "not list", owner->deb.package);
		}
	}
	strings_free(list, n);
}

int
review_profile(struct review *r, struct dpkg_error *err)
{
	bool *done = calloc(r->npackages + 1, sizeof(bool));
	size_t i;

	if (done == NULL)
		abort();
	if (r->opt.compile && apparmor_parser() == NULL) {
		dpkg_put_error(err, "apparmor_parser not found: the apparmor "
		               "package is needed to check profiles");
		free(done);
		return -1;
	}
	for (i = 0; i < r->npackages; i++)
		if (!done[i])
			check_source(r, i, done);
	free(done);
	return 0;
}
