/*
 * dh-addon.c: the add-on's sequence and build systems, read from
 * templates/addon/.
 *
 * Both files are lines of blank-separated words, "#" lines comments: the
 * Perl add-on splits them the same way (DhExtras/AddonData.pm).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/datadir.h"
#include "dh/dh-addon.h"

#define MAX_WORDS 64

/* One file's lines, split into words. */
struct reader {
	const char *path;
	FILE *fp;
	int line;
	char *buf;
	size_t size;
	char *words[MAX_WORDS];
	int nwords;
};

static int
reader_open(struct reader *r, const char *path, struct dpkg_error *err)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->fp = fopen(path, "r");
	if (r->fp == NULL)
		return put_error_at(err, path, 0, "cannot open: %s",
		                    strerror(errno));
	return 0;
}

/* The next line that has words: 1, 0 at the end, -1 with ERR set. */
static int
reader_next(struct reader *r, struct dpkg_error *err)
{
	while (getline(&r->buf, &r->size, r->fp) >= 0) {
		char *p = r->buf, *save = NULL;

		r->line++;
		r->nwords = 0;
		p += strspn(p, " \t\n");
		if (*p == '#')
			continue;
		for (p = strtok_r(p, " \t\n", &save); p != NULL;
		     p = strtok_r(NULL, " \t\n", &save)) {
			if (r->nwords == MAX_WORDS)
				return put_error_at(err, r->path, r->line,
				                    "more than %d words",
				                    MAX_WORDS);
			r->words[r->nwords++] = p;
		}
		if (r->nwords > 0)
			return 1;
	}
	if (ferror(r->fp))
		return put_error_at(err, r->path, 0, "cannot read: %s",
		                    strerror(errno));
	return 0;
}

static void
reader_close(struct reader *r)
{
	if (r->fp != NULL)
		fclose(r->fp);
	free(r->buf);
}

/* A dh command's name: dh_ and lower-case letters, digits and "_". */
static bool
is_command(const char *s)
{
	return strncmp(s, "dh_", 3) == 0 && s[3] != '\0' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

static bool
is_helper(const char *s)
{
	return is_command(s) && strncmp(s, "dh_extras_", 10) == 0;
}

static void
push(char ***list, size_t *n, const char *s)
{
	*list = m_realloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = m_strdup(s);
}

/* The place NAME is in (its command or a helper around it), and where. */
static struct dh_addon_place *
find_name(struct dh_addon *a, const char *name, size_t *at)
{
	size_t i, j;

	for (i = 0; i < a->nplaces; i++)
		for (j = 0; j < a->places[i].nnames; j++)
			if (strcmp(a->places[i].names[j], name) == 0) {
				*at = j;
				return &a->places[i];
			}
	return NULL;
}

/* "insert HELPER before|after ANCHOR", as dh's insert_before/_after. */
static int
insert(struct dh_addon *a, struct reader *r, struct dpkg_error *err)
{
	const char *helper, *anchor;
	struct dh_addon_place *place;
	bool after;
	size_t at;

	if (r->nwords != 4 || (strcmp(r->words[2], "before") != 0 &&
	                       strcmp(r->words[2], "after") != 0))
		return put_error_at(err, r->path, r->line, "not 'insert "
		                    "HELPER before|after COMMAND'");
	helper = r->words[1];
	anchor = r->words[3];
	if (!is_helper(helper))
		return put_error_at(err, r->path, r->line, "'%s' is not a "
		                    "dh_extras_* helper", helper);
	if (!is_command(anchor))
		return put_error_at(err, r->path, r->line, "'%s' is not a dh "
		                    "command", anchor);
	if (find_name(a, helper, &at) != NULL)
		return put_error_at(err, r->path, r->line, "%s is inserted "
		                    "twice", helper);
	after = strcmp(r->words[2], "after") == 0;
	place = find_name(a, anchor, &at);
	if (place == NULL && is_helper(anchor))
		return put_error_at(err, r->path, r->line, "%s is not in the "
		                    "sequence yet", anchor);
	if (place == NULL) {
		a->places = m_realloc(a->places, (a->nplaces + 1) *
		                                 sizeof(*a->places));
		place = &a->places[a->nplaces++];
		memset(place, 0, sizeof(*place));
		push(&place->names, &place->nnames, anchor);
		at = 0;
	}
	if (after)
		at++;
	place->names = m_realloc(place->names, (place->nnames + 1) *
	                                       sizeof(*place->names));
	memmove(place->names + at + 1, place->names + at,
	        (place->nnames++ - at) * sizeof(*place->names));
	place->names[at] = m_strdup(helper);
	if (at <= place->at)
		place->at++;
	return 0;
}

static int
load_sequence(struct dh_addon *a, const char *path, struct dpkg_error *err)
{
	struct reader r;
	int rc, i;

	if (reader_open(&r, path, err) < 0)
		return -1;
	while ((rc = reader_next(&r, err)) > 0) {
		const char *verb = r.words[0];

		if (strcmp(verb, "insert") == 0) {
			rc = insert(a, &r, err);
		} else if (strcmp(verb, "option") == 0) {
			if (r.nwords < 3 || !is_command(r.words[1]))
				rc = put_error_at(err, path, r.line, "not "
				                  "'option COMMAND OPTION...'");
			for (i = 2; rc == 1 && i < r.nwords; i++) {
				if (r.words[i][0] != '-') {
					rc = put_error_at(err, path, r.line,
					                  "'%s' is not an "
					                  "option", r.words[i]);
					break;
				}
				a->options = m_realloc(a->options,
				                       (a->noptions + 1) *
				                       sizeof(*a->options));
				a->options[a->noptions].command =
					m_strdup(r.words[1]);
				a->options[a->noptions++].option =
					m_strdup(r.words[i]);
			}
		} else if (strcmp(verb, "remove") == 0) {
			if (r.nwords != 2 || !is_command(r.words[1]))
				rc = put_error_at(err, path, r.line, "not "
				                  "'remove COMMAND'");
			else
				push(&a->removed, &a->nremoved, r.words[1]);
		} else {
			rc = put_error_at(err, path, r.line, "'%s' is none of "
			                  "insert, option, remove", verb);
		}
		if (rc < 0)
			break;
	}
	reader_close(&r);
	return rc < 0 ? -1 : 0;
}

static const char *const keys[DH_STEPS + 2] = {
	[DH_STEP_CONFIGURE] = "configure", [DH_STEP_BUILD] = "build",
	[DH_STEP_TEST] = "test", [DH_STEP_INSTALL] = "install",
	[DH_STEP_CLEAN] = "clean", [DH_STEPS] = "detect",
	[DH_STEPS + 1] = "sources",
};

/* NAME=%NS% or NAME=%NS%/DIR, NAME without "=". */
static bool
is_param(const char *s)
{
	const char *eq = strchr(s, '=');
	size_t n = strlen(DH_ADDON_NS);

	return eq != NULL && eq > s && memchr(s, '%', eq - s) == NULL &&
	       strncmp(eq + 1, DH_ADDON_NS, n) == 0 &&
	       (eq[1 + n] == '\0' || eq[1 + n] == '/') &&
	       strchr(eq + 1 + n, '%') == NULL;
}

static int
buildsystem_line(struct dh_addon *a, struct reader *r,
                 struct dpkg_error *err)
{
	struct dh_buildsystem *b = NULL;
	char ***list;
	size_t i, n = 0;
	int k;

	if (r->nwords < 3)
		return put_error_at(err, r->path, r->line, "not 'BUILDSYSTEM "
		                    "STEP|detect|sources WORD...'");
	if (strspn(r->words[0], "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
	    strlen(r->words[0]))
		return put_error_at(err, r->path, r->line, "'%s' is not a "
		                    "build system's name", r->words[0]);
	for (k = 0; k < DH_STEPS + 2; k++)
		if (strcmp(r->words[1], keys[k]) == 0)
			break;
	if (k == DH_STEPS + 2)
		return put_error_at(err, r->path, r->line, "'%s' is none of "
		                    "configure, build, test, install, clean, "
		                    "detect, sources", r->words[1]);
	for (i = 0; i < a->nbuildsystems; i++)
		if (strcmp(a->buildsystems[i].name, r->words[0]) == 0)
			b = &a->buildsystems[i];
	if (b == NULL) {
		a->buildsystems = m_realloc(a->buildsystems,
		                            (a->nbuildsystems + 1) *
		                            sizeof(*a->buildsystems));
		b = &a->buildsystems[a->nbuildsystems++];
		memset(b, 0, sizeof(*b));
		b->name = m_strdup(r->words[0]);
	}
	list = k < DH_STEPS ? &b->params[k] :
	       k == DH_STEPS ? &b->detect : &b->sources;
	if (*list != NULL)
		return put_error_at(err, r->path, r->line, "a second '%s %s' "
		                    "line", r->words[0], r->words[1]);
	for (k = 2; k < r->nwords; k++) {
		const char *w = r->words[k];

		if (list == &b->detect ? strchr(w, '/') != NULL :
		    list == &b->sources ? strchr(w, '/') != NULL :
		    !is_param(w))
			return put_error_at(err, r->path, r->line, "'%s' is "
			                    "not %s", w, list == &b->detect ?
			                    "a file's name" : list ==
			                    &b->sources ? "a pattern of names" :
			                    "NAME=" DH_ADDON_NS " or NAME="
			                    DH_ADDON_NS "/DIR");
		push(list, &n, w);
	}
	*list = m_realloc(*list, (n + 1) * sizeof(**list));
	(*list)[n] = NULL;
	return 0;
}

static int
load_buildsystems(struct dh_addon *a, const char *path,
                  struct dpkg_error *err)
{
	struct reader r;
	int rc;

	if (reader_open(&r, path, err) < 0)
		return -1;
	while ((rc = reader_next(&r, err)) > 0)
		if (buildsystem_line(a, &r, err) < 0) {
			rc = -1;
			break;
		}
	reader_close(&r);
	return rc < 0 ? -1 : 0;
}

int
dh_addon_load(struct dh_addon *addon, const char *dir,
              struct dpkg_error *err)
{
	char *seq = str_fmt("%s/sequence", dir);
	char *bs = str_fmt("%s/buildsystems", dir);
	int rc;

	memset(addon, 0, sizeof(*addon));
	rc = load_sequence(addon, seq, err) < 0 ||
	     load_buildsystems(addon, bs, err) < 0 ? -1 : 0;
	free(seq);
	free(bs);
	if (rc < 0)
		dh_addon_free(addon);
	return rc;
}

static void
free_list(char **list, size_t n)
{
	size_t i;

	for (i = 0; list != NULL && (n > 0 ? i < n : list[i] != NULL); i++)
		free(list[i]);
	free(list);
}

void
dh_addon_free(struct dh_addon *a)
{
	size_t i;
	int k;

	for (i = 0; i < a->nplaces; i++)
		free_list(a->places[i].names, a->places[i].nnames);
	free(a->places);
	for (i = 0; i < a->noptions; i++) {
		free(a->options[i].command);
		free(a->options[i].option);
	}
	free(a->options);
	free_list(a->removed, a->nremoved);
	for (i = 0; i < a->nbuildsystems; i++) {
		free(a->buildsystems[i].name);
		free_list(a->buildsystems[i].detect, 0);
		free_list(a->buildsystems[i].sources, 0);
		for (k = 0; k < DH_STEPS; k++)
			free_list(a->buildsystems[i].params[k], 0);
	}
	free(a->buildsystems);
	memset(a, 0, sizeof(*a));
}

const struct dh_addon *
dh_addon_data(struct dpkg_error *err)
{
	static struct dh_addon addon;
	static bool loaded;

	if (!loaded) {
		char *dir = str_fmt("%s/templates/addon", dh_extras_datadir());

		loaded = dh_addon_load(&addon, dir, err) == 0;
		free(dir);
	}
	return loaded ? &addon : NULL;
}

const struct dh_addon_place *
dh_addon_place(const struct dh_addon *a, const char *command, size_t n)
{
	size_t i;

	for (i = 0; i < a->nplaces; i++) {
		const char *c = a->places[i].names[a->places[i].at];

		if (strlen(c) == n && strncmp(c, command, n) == 0)
			return &a->places[i];
	}
	return NULL;
}

const struct dh_buildsystem *
dh_addon_buildsystem(const struct dh_addon *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nbuildsystems; i++)
		if (strcmp(a->buildsystems[i].name, name) == 0)
			return &a->buildsystems[i];
	return NULL;
}
