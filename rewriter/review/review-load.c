/*
 * review-load.c: binary packages read for review, from .deb and .changes
 * files (libarchive, through debfile.c).  Kept apart from the rules so that
 * dh_extras_check, which reviews build trees, does not load libarchive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "debian/changes.h"
#include "review/review.h"

struct kept {
	bool profile;
	struct review_keep *works;
};

/*
 * What the rules read from data.tar: the profile's text (the first file
 * directly under etc/apparmor.d, anything else there is refused) and what
 * review-works reads, within its budget, so that a hostile package cannot
 * make us hold more.
 */
static bool
keep_member(const struct debfile_member *m, void *ctx)
{
	size_t n = strlen(REVIEW_PROFILE_DIR);
	struct kept *kept = ctx;

	if (strncmp(m->path, REVIEW_PROFILE_DIR, n) == 0 && m->path[n] == '/' &&
	    strchr(m->path + n + 1, '/') == NULL) {
		if (kept->profile)
			return false;
		kept->profile = true;
		return true;
	}
	return review_works_keeps(m, kept->works);
}

static int
read_deb(struct review *r, const char *path, const char *changes,
         struct dpkg_error *err)
{
	struct review_package *p = review_add_package(r, path);
	struct kept kept = { .works = &p->keep };

	if (debfile_read_keep(&p->deb, path, keep_member, &kept,
	                      err) < 0) {
		free(p->where);
		return -1;
	}
	p->changes = changes;
	r->npackages++;
	return 0;
}

int
review_add_deb(struct review *r, const char *path, struct dpkg_error *err)
{
	return read_deb(r, path, NULL, err);
}

int
review_add_previous(struct review *r, const char *path, struct dpkg_error *err)
{

	r->previous = m_realloc(r->previous,
	                        (r->nprevious + 1) * sizeof(*r->previous));
	if (debfile_read(&r->previous[r->nprevious], path, err) < 0)
		return -1;
	r->nprevious++;
	return 0;
}

static bool
has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), x = strlen(suffix);

	return n > x && strcmp(name + n - x, suffix) == 0;
}

/*
 * Every file of the .changes CH is read or refused, on the first of its
 * packages (P): only .debs are published, and only what the gate read
 * may be.  A .buildinfo is the record of the build, which nothing
 * installs: it is skipped.
 */
static void
check_listed(struct review *r, size_t p, const struct changes *ch)
{
	size_t i;

	for (i = 0; i < ch->nfiles; i++) {
		const char *name = ch->files[i].name;

		if (changes_file_is_deb(&ch->files[i]) ||
		    has_suffix(name, ".buildinfo"))
			continue;
		if (has_suffix(name, ".udeb"))
			review_problem(r, p, "changes", NULL, "%s lists %s, an "
			               "installer package (udeb): the store "
			               "publishes debs only: build without it",
			               ch->filename, name);
		else if (has_suffix(name, ".ddeb"))
			review_problem(r, p, "changes", NULL, "%s lists %s, a "
			               "debug symbols package the gate does not "
			               "review: build without it "
			               "(DEB_BUILD_OPTIONS=noautodbgsym)",
			               ch->filename, name);
		else
			review_problem(r, p, "changes", NULL, "%s lists %s, "
			               "which is not a binary package the gate "
			               "reviews: upload the binary packages alone "
			               "(dpkg-buildpackage -b)", ch->filename,
			               name);
	}
}

/* Distribution: released (not UNRELEASED), to the store's when given. */
static void
check_distribution(struct review *r, size_t p, const struct changes *ch)
{
	const char *d = changes_field(ch, "Distribution");
	const char *want = r->opt.distribution;
	size_t n;

	if (d == NULL || *d == '\0') {
		review_problem(r, p, "changes", NULL, "%s has no Distribution: "
		               "release the changelog entry (dch -r)",
		               ch->filename);
		return;
	}
	for (; *d; d += n + strspn(d + n, " \t")) {
		n = strcspn(d, " \t");
		if (n == 10 && strncmp(d, "UNRELEASED", n) == 0)
			review_problem(r, p, "changes", NULL, "%s: Distribution: "
			               "UNRELEASED: the changelog entry is not "
			               "released: release it (dch -r%s%s)",
			               ch->filename, want ? " -D " : "",
			               want ? want : "");
		else if (want != NULL && (strlen(want) != n ||
		                          strncmp(d, want, n) != 0))
			review_problem(r, p, "changes", NULL, "%s: Distribution: "
			               "%.*s: the store publishes to %s: release "
			               "for it (dch -r -D %s)", ch->filename,
			               (int)n, d, want, want);
	}
}

int
review_add_changes(struct review *r, const char *path, struct dpkg_error *err)
{
	struct changes ch;
	size_t i, before = r->npackages;
	char *name;
	int ret = 0;

	if (changes_read(&ch, path, err) < 0)
		return -1;
	name = m_strdup(path);
	r->changes = m_realloc(r->changes, (r->nchanges + 1) * sizeof(char *));
	r->changes[r->nchanges++] = name;
	for (i = 0; i < ch.nfiles && ret == 0; i++)
		if (changes_file_is_deb(&ch.files[i]))
			ret = read_deb(r, ch.files[i].path, name, err);
	if (ret == 0 && r->npackages == before) {
		dpkg_put_error(err, "%s: lists no binary package", path);
		ret = -1;
	}
	if (ret == 0) {
		check_listed(r, before, &ch);
		check_distribution(r, before, &ch);
	}
	/* Every package must come from the source the .changes names. */
	for (i = before; ret == 0 && i < r->npackages; i++)
		if (strcmp(r->packages[i].deb.source, ch.source) != 0)
			review_problem(r, i, "name", NULL, "source '%s' is not "
			               "'%s', the source %s names",
			               r->packages[i].deb.source, ch.source, path);
	changes_destroy(&ch);
	return ret;
}
