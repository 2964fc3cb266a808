/*
 * review-scripts.c: maintainer scripts and the other control files.
 *
 * An extras package runs no maintainer script but the ones dh-extras
 * generates (scripts/maintscript-generate.h): the package that ships the
 * app's profile loads it in its postinst and unloads it in its postrm,
 * and has no other script; every other package has none.  The gate
 * generates them again from what it knows of the package (its name, and
 * the profile it ships, named by the store's namespace) and compares byte
 * for byte: nothing is judged, so nothing of the author's can pass as
 * harmless shell.  The other control files are the few dpkg-deb and
 * dh-extras write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/datadir.h"
#include "review/review.h"
#include "scripts/maintscript-generate.h"

/* Control files an extras package may have besides maintainer scripts. */
static const char *const control_files[] = {
	"control", "md5sums", "conffiles", "triggers", REVIEW_DECLARATION,
	NULL,
};

static const char *
next_line(const char *line)
{
	size_t n = strcspn(line, "\n");

	return line + n + (line[n] == '\n');
}

static bool
in_list(const char *const *list, const char *name)
{
	int i;

	for (i = 0; list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static bool
is_script(const char *name)
{
	int k;

	for (k = 0; k < MAINTSCRIPT_KINDS; k++)
		if (strcmp(maintscript_names[k], name) == 0)
			return true;
	return false;
}

/* Whether package P ships its app's profile. */
static bool
ships_profile(const struct review_package *p)
{
	char path[PROFILE_NAME_MAX + 32];
	size_t i;

	if (!p->namespace_ok)
		return false;
	snprintf(path, sizeof(path), REVIEW_PROFILE_DIR "/%s",
	         p->profile_name);
	for (i = 0; i < p->deb.nmembers; i++)
		if (strcmp(p->deb.members[i].path, path) == 0)
			return true;
	return false;
}

static void
check_triggers(struct review *r, size_t i,
               const struct debfile_control_member *c)
{
	const char *line = c->data;
	int lno = 0;

	for (; *line; line = next_line(line)) {
		size_t n = strcspn(line, "\n"), b = strspn(line, " \t");

		lno++;
		if (b >= n || line[b] == '#')
			continue;
		review_problem(r, i, "control-file", "DEBIAN/triggers", "line "
		               "%d: '%.*s': an extras package runs no script "
		               "a trigger would call", lno,
		               (int)(n - b > 80 ? 80 : n - b), line + b);
	}
}

/* The first line where C differs from WANT, from 1. */
static int
first_difference(const struct debfile_control_member *c, const char *want)
{
	size_t n = strlen(want), k;
	int line = 1;

	for (k = 0; k < c->size && k < n && c->data[k] == want[k]; k++)
		line += want[k] == '\n';
	return line;
}

/* Script KIND of package I against the generated WANT (NULL: none). */
static void
check_script(struct review *r, size_t i, enum maintscript_kind kind,
             const char *want)
{
	const struct review_package *p = &r->packages[i];
	const char *name = maintscript_names[kind];
	const struct debfile_control_member *c =
		debfile_control_member(&p->deb, name);
	char path[32];

	snprintf(path, sizeof(path), "DEBIAN/%s", name);
	if (c == NULL && want == NULL)
		return;
	if (c == NULL) {
		review_problem(r, i, "script", path, "missing: %s", kind ==
		               MAINTSCRIPT_POSTINST ? "nothing loads the app's "
		               "AppArmor profile, and the app would run "
		               "unconfined" : "nothing unloads the app's "
		               "AppArmor profile when the package goes");
		return;
	}
	if (want == NULL) {
		review_problem(r, i, "script", path, "an extras package runs no "
		               "maintainer script but the ones dh-extras "
		               "generates, and %s has no %s: build with the "
		               "extras sequence (dh_extras_scripts), and let "
		               "extras-convert translate what the author's "
		               "script did", p->deb.package, name);
		return;
	}
	if (c->type != DEBFILE_REGULAR || c->size != strlen(want) ||
	    memcmp(c->data, want, c->size) != 0) {
		review_problem(r, i, "script", path, "differs from the one "
		               "dh-extras generates from line %d: build with "
		               "the extras sequence (dh_extras_scripts), which "
		               "writes it", c->type == DEBFILE_REGULAR ?
		               first_difference(c, want) : 1);
		return;
	}
	/* Its mode is dpkg-deb's: it packs every script 0755. */
}

static void
check_package(struct review *r, size_t i, const char *templates)
{
	const struct review_package *p = &r->packages[i];
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct maintscripts want;
	size_t j;
	int k;

	for (j = 0; j < p->deb.ncontrol_members; j++) {
		const struct debfile_control_member *c =
			&p->deb.control_members[j];
		char path[4096 + 8];

		snprintf(path, sizeof(path), "DEBIAN/%s", c->name);
		if (is_script(c->name))
			continue;
		if (strcmp(c->name, "shlibs") == 0 ||
		    strcmp(c->name, "symbols") == 0) {
			review_problem(r, i, "control-file", path, "an extras "
			               "package ships no libraries for others");
			continue;
		}
		if (!in_list(control_files, c->name)) {
			review_problem(r, i, "control-file", path, "not a "
			               "control file an extras package may have");
			continue;
		}
		if (c->type != DEBFILE_REGULAR) {
			review_problem(r, i, "control-file", path, "not a "
			               "regular file");
			continue;
		}
		if (strcmp(c->name, "triggers") == 0)
			check_triggers(r, i, c);
	}
	/* A name dpkg refuses is review-control's to report; the package
	 * can then have no script at all. */
	if (maintscripts_generate(&want, templates, p->deb.package,
	                          ships_profile(p) ? p->profile_name : NULL,
	                          &err) < 0) {
		dpkg_error_destroy(&err);
		memset(&want, 0, sizeof(want));
	}
	for (k = 0; k < MAINTSCRIPT_KINDS; k++)
		check_script(r, i, (enum maintscript_kind)k, want.text[k]);
	maintscripts_free(&want);
}

int
review_scripts(struct review *r, struct dpkg_error *err)
{
	char templates[4096];
	struct maintscripts s;
	size_t i;

	if (r->opt.templates != NULL)
		snprintf(templates, sizeof(templates), "%s", r->opt.templates);
	else
		snprintf(templates, sizeof(templates), "%s/templates",
		         dh_extras_datadir());
	/* The templates must be there: else every package would be judged
	 * against no scripts at all. */
	if (maintscripts_generate(&s, templates, "extras-probe", "probe",
	                          err) < 0)
		return -1;
	maintscripts_free(&s);
	for (i = 0; i < r->npackages; i++)
		check_package(r, i, templates);
	return 0;
}
