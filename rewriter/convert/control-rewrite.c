/*
 * control-rewrite.c: debian/control renamed into the extras- name space.
 */
#include <stdbool.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/string.h>

#include "base/strings.h"
#include "convert/control-rewrite.h"
#include "debian/deb822.h"
#include "namespace/namespace.h"
#include "debian/relation.h"

#define CONTROL_FILE "debian/control"

/* Relation fields, and whether relations on other packages go. */
static const struct {
	const char *name;
	bool drop_others;
} relation_fields[] = {
	{ "Build-Depends", false },
	{ "Build-Depends-Arch", false },
	{ "Build-Depends-Indep", false },
	{ "Build-Conflicts", false },
	{ "Build-Conflicts-Arch", false },
	{ "Build-Conflicts-Indep", false },
	{ "Pre-Depends", false },
	{ "Depends", false },
	{ "Recommends", false },
	{ "Suggests", false },
	{ "Enhances", false },
	{ "Built-Using", false },
	{ "Static-Built-Using", false },
	{ "Breaks", true },
	{ "Conflicts", true },
	{ "Replaces", true },
	{ "Provides", true },
};

/* One replacement of the bytes [start, end) of the original. */
struct edit {
	size_t start, end;
	char *text;
};

struct edits {
	struct edit *e;
	int n;
};

static void
edit_add(struct edits *ed, size_t start, size_t end, const char *text)
{
	ed->e = m_realloc(ed->e, sizeof(*ed->e) * (ed->n + 1));
	ed->e[ed->n].start = start;
	ed->e[ed->n].end = end;
	ed->e[ed->n].text = m_strdup(text);
	ed->n++;
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static char *
edits_apply(struct edits *ed, const char *text, size_t len)
{
	size_t max = len + 1, pos = 0, o = 0;
	char *out;
	int i;

	if (ed->n > 0)
		qsort(ed->e, ed->n, sizeof(*ed->e), edit_cmp);
	for (i = 0; i < ed->n; i++)
		max += strlen(ed->e[i].text);
	out = m_malloc(max);
	for (i = 0; i < ed->n; i++) {
		memcpy(out + o, text + pos, ed->e[i].start - pos);
		o += ed->e[i].start - pos;
		memcpy(out + o, ed->e[i].text, strlen(ed->e[i].text));
		o += strlen(ed->e[i].text);
		pos = ed->e[i].end;
	}
	memcpy(out + o, text + pos, len - pos);
	o += len - pos;
	out[o] = '\0';
	return out;
}

static void
edits_free(struct edits *ed)
{
	int i;

	for (i = 0; i < ed->n; i++)
		free(ed->e[i].text);
	free(ed->e);
}

static const char *
check_name(const char *name)
{
	const char *why = pkg_name_is_illegal(name);

	if (why == NULL && strpbrk(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
		why = "must be lowercase";
	/* Policy 5.6.7: dpkg still accepts '_' for old packages; we do not. */
	if (why == NULL && strchr(name, '_'))
		why = "may hold only a-z, 0-9, '+', '-' and '.'";
	return why;
}

/* A udeb is the installer's: it cannot be an extras package. */
static bool
is_udeb(const struct deb822_stanza *st)
{
	const struct deb822_field *f = deb822_find(st, "Package-Type");

	if (f == NULL)
		f = deb822_find(st, "XC-Package-Type");
	return f != NULL && strcmp(f->value, "udeb") == 0;
}

static bool
has_prefix(const char *name)
{
	return strncmp(name, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) == 0;
}

/* Prefix the name that starts the value of F, unless it has it already. */
static void
rename_value(struct edits *ed, const struct deb822_field *f)
{
	if (!has_prefix(f->value))
		edit_add(ed, f->value_start, f->value_start, EXTRAS_PREFIX);
}

struct drop_note {
	struct convert_plan *plan;
	const char *field;
	const char *file;
};

static void
note_dropped(void *obj, const char *relation, int line)
{
	struct drop_note *d = obj;

	if (d->plan)
		convert_plan_note(d->plan, d->file, line,
		                  "dropped %s: %s (a package outside the source; "
		                  "extras packages never replace or break one)",
		                  d->field, relation);
}

/* Append the add-on to Build-Depends, in the style the field is written. */
static char *
add_addon(const char *value, const char *file, int line,
          struct dpkg_error *err)
{
	struct relation_list l;
	const struct relation *last;
	size_t len = strlen(value), at, indent_at, indent_len = 0;
	char *out, *insert;
	bool one_per_line;
	int i;

	if (relation_parse(&l, value, len, file, line, "Build-Depends", err) < 0)
		return NULL;
	for (i = 0; i < l.nitems; i++)
		if (l.items[i].alts[0].name_len == strlen(CONTROL_BUILD_DEPENDS_ADDON) &&
		    memcmp(value + l.items[i].alts[0].name, CONTROL_BUILD_DEPENDS_ADDON,
		           strlen(CONTROL_BUILD_DEPENDS_ADDON)) == 0) {
			relation_list_free(&l);
			return m_strdup(value);
		}
	if (l.nitems == 0) {
		relation_list_free(&l);
		return m_strdup(" " CONTROL_BUILD_DEPENDS_ADDON "\n");
	}
	last = &l.items[l.nitems - 1];
	one_per_line = memchr(value, '\n', last->start) != NULL;
	insert = m_malloc(len + 64);
	if (one_per_line) {
		indent_at = last->start;
		while (indent_at > 0 && value[indent_at - 1] != '\n')
			indent_at--;
		while (value[indent_at + indent_len] == ' ' ||
		       value[indent_at + indent_len] == '\t')
			indent_len++;
		if (last->comma != RELATION_NO_COMMA) {
			at = last->comma + 1;
			sprintf(insert, "\n%.*s%s,", (int)indent_len,
			        value + indent_at, CONTROL_BUILD_DEPENDS_ADDON);
		} else {
			at = last->end;
			sprintf(insert, ",\n%.*s%s", (int)indent_len,
			        value + indent_at, CONTROL_BUILD_DEPENDS_ADDON);
		}
	} else if (last->comma != RELATION_NO_COMMA) {
		at = last->comma + 1;
		sprintf(insert, " %s,", CONTROL_BUILD_DEPENDS_ADDON);
	} else {
		at = last->end;
		sprintf(insert, ", %s", CONTROL_BUILD_DEPENDS_ADDON);
	}
	out = m_malloc(len + strlen(insert) + 1);
	memcpy(out, value, at);
	strcpy(out + at, insert);
	strcat(out, value + at);
	free(insert);
	relation_list_free(&l);
	return out;
}

/* LEN of S without the blanks and newlines at its end. */
static size_t
trimmed(const char *s, size_t len)
{
	while (len > 0 && strchr(" \t\n", s[len - 1]) != NULL)
		len--;
	return len;
}

/*
 * A binary package's Pre-Depends F (its value rewritten: OUT, NULL when
 * nothing is left) becomes part of its Depends: dpkg needs nothing
 * configured before it unpacks an app, and the gate refuses the field
 * (gawk and sed, Essential in Debian, pre-depend on their libraries).
 * Returns the value for an existing Depends field to take, or NULL when
 * the field was written here (as Depends, or dropped).  Frees OUT.
 */
static char *
pre_depends(const struct deb822 *d, const struct deb822_stanza *st,
            const struct deb822_field *f, char *out, struct edits *ed,
            struct convert_plan *plan)
{
	bool depends = deb822_find(st, "Depends") != NULL;

	if (plan)
		convert_plan_note(plan, d->filename, f->line, "Pre-Depends "
		                  "merged into Depends: an app is unpacked as "
		                  "any package, with nothing of it needed "
		                  "before");
	if (out == NULL || trimmed(out, strlen(out)) == 0) {
		edit_add(ed, f->start, f->end, "");
		free(out);
		return NULL;
	}
	if (depends) {
		edit_add(ed, f->start, f->end, "");
		return out;
	}
	{
		char *field = str_fmt("Depends: %s", out);

		edit_add(ed, f->start, f->end, field);
		free(field);
	}
	free(out);
	return NULL;
}

static int
rewrite_relations(const struct deb822 *d, const struct deb822_stanza *st,
                  bool source, const struct relation_owner *own,
                  struct edits *ed, struct convert_plan *plan,
                  struct dpkg_error *err)
{
	bool saw_build_depends = false;
	/* A binary package's Pre-Depends, rewritten, for its Depends. */
	char *pre = NULL;
	size_t k;

	for (k = 0; k < sizeof(relation_fields) / sizeof(relation_fields[0]); k++) {
		const struct deb822_field *f = deb822_find(st, relation_fields[k].name);
		struct drop_note note = { plan, relation_fields[k].name, d->filename };
		struct relation_list l;
		const char *text;
		size_t len;
		char *out;

		if (f == NULL)
			continue;
		text = d->text + f->value_start;
		len = f->end - f->value_start;
		if (relation_parse(&l, text, len, d->filename, f->line, f->name,
		                   err) < 0)
			return -1;
		out = relation_rewrite(text, len, &l, own,
		                       !source && relation_fields[k].drop_others,
		                       note_dropped, &note);
		relation_list_free(&l);
		if (source && strcasecmp(f->name, "Build-Depends") == 0) {
			char *with = add_addon(out ? out : "", d->filename,
			                       f->line, err);

			free(out);
			if (with == NULL)
				return -1;
			out = with;
			saw_build_depends = true;
		}
		if (!source && strcasecmp(f->name, "Pre-Depends") == 0) {
			pre = pre_depends(d, st, f, out, ed, plan);
			continue;
		}
		if (pre != NULL && strcasecmp(f->name, "Depends") == 0) {
			char *joined = str_fmt("%.*s, %s",
			                       (int)trimmed(out ? out : text,
			                                    out ? strlen(out) : len),
			                       out ? out : text, pre);

			free(out);
			out = joined;
		}
		if (out == NULL)
			edit_add(ed, f->start, f->end, "");
		else if (strlen(out) != len || memcmp(out, text, len) != 0)
			edit_add(ed, f->value_start, f->end, out);
		free(out);
	}
	free(pre);
	if (source && !saw_build_depends)
		edit_add(ed, st->end, st->end,
		         "Build-Depends: " CONTROL_BUILD_DEPENDS_ADDON "\n");
	return 0;
}

/*
 * dpkg reads field names case-insensitively: "Package" and "package" in
 * one stanza are one field given twice, and which one a tool reads is
 * anybody's guess.
 */
static int
check_repeated_field(const struct deb822 *d, const struct deb822_stanza *s,
                     struct dpkg_error *err)
{
	const char *name = deb822_duplicate_field(s);
	const struct deb822_field *first, *again = NULL;
	int i;

	if (name == NULL)
		return 0;
	first = deb822_find(s, name);
	for (i = 0; i < s->nfields; i++)
		if (s->fields[i].name == name)
			again = &s->fields[i];
	return put_error_at(err, d->filename, again->line,
	                    "field '%s' repeats '%s' of line %d (field names "
	                    "are case-insensitive)", again->name, first->name,
	                    first->line);
}

static int
read_names(const struct deb822 *d, struct control_info *info,
           struct dpkg_error *err)
{
	const struct deb822_field *f;
	const char *why;
	size_t names = 0;
	int i, j;

	if (d->nstanzas < 2)
		return put_error_at(err, d->filename, 0,
		                    "needs a source stanza and at least one "
		                    "binary package stanza");
	if (d->nstanzas - 1 > CONTROL_PACKAGES_MAX)
		return put_error_at(err, d->filename,
		                    d->stanzas[CONTROL_PACKAGES_MAX + 1].line,
		                    "binary package %d of %d: more than the %d "
		                    "an extras source may build",
		                    CONTROL_PACKAGES_MAX + 1, d->nstanzas - 1,
		                    CONTROL_PACKAGES_MAX);
	for (i = 0; i < d->nstanzas; i++)
		if (check_repeated_field(d, &d->stanzas[i], err) < 0)
			return -1;
	f = deb822_find(&d->stanzas[0], "Source");
	if (f == NULL)
		return put_error_at(err, d->filename, d->stanzas[0].line,
		                    "the first stanza has no Source field");
	if ((why = check_name(f->value)) != NULL)
		return put_error_at(err, d->filename, f->line,
		                    "invalid source name '%s': %s", f->value, why);
	info->app = m_strdup(namespace_app_of_package(f->value));
	if ((why = namespace_check_app(info->app)) != NULL)
		return put_error_at(err, d->filename, f->line,
		                    "source name '%s' cannot name an extras app: "
		                    "it %s", info->app, why);
	info->packages = m_malloc(sizeof(char *) * d->nstanzas);
	for (i = 1; i < d->nstanzas; i++) {
		const char *name;
		char full[256];

		f = deb822_find(&d->stanzas[i], "Package");
		if (f == NULL)
			return put_error_at(err, d->filename, d->stanzas[i].line,
			                    "binary package stanza has no "
			                    "Package field");
		if ((why = check_name(f->value)) != NULL)
			return put_error_at(err, d->filename, f->line,
			                    "invalid package name '%s': %s",
			                    f->value, why);
		name = namespace_app_of_package(f->value);
		snprintf(full, sizeof(full), "%s%s", EXTRAS_PREFIX, name);
		if (strlen(name) > 200 || check_name(full) != NULL)
			return put_error_at(err, d->filename, f->line,
			                    "package name '%s' is too long", name);
		for (j = 0; j < info->npackages; j++)
			if (strcmp(info->packages[j], name) == 0)
				return put_error_at(err, d->filename, f->line,
				                    "package '%s' is listed twice",
				                    f->value);
		/* debian/rules is rewritten by patterns holding every name. */
		names += strlen(name);
		if (names > CONTROL_NAMES_MAX)
			return put_error_at(err, d->filename, f->line,
			                    "the names of the binary packages "
			                    "take more than %d bytes: more than "
			                    "an app's source has, and than the "
			                    "converter's patterns hold",
			                    CONTROL_NAMES_MAX);
		info->packages[info->npackages++] = m_strdup(name);
	}
	for (i = 1; i < d->nstanzas && is_udeb(&d->stanzas[i]); i++)
		;
	if (i == d->nstanzas)
		return put_error_at(err, d->filename, d->stanzas[1].line,
		                    "only udebs: nothing can be an extras "
		                    "package");
	return 0;
}

/*
 * Take the udeb of stanza ST out of every build: the installer's packages
 * cannot be extras packages.  The stanza stays, restricted to a build
 * profile no build daemon enables, because debhelper counts the stanzas:
 * with one package left, dh_auto_install would install into debian/PKG
 * instead of debian/tmp, where the maintainer's debian/PKG.install files
 * look.
 */
static void
drop_udeb(const struct deb822 *d, const struct deb822_stanza *st,
          struct edits *ed, struct convert_plan *plan)
{
	const struct deb822_field *f = deb822_find(st, "Build-Profiles");

	if (f != NULL)
		edit_add(ed, f->value_start, f->end, CONTROL_UDEB_PROFILE "\n");
	else if (st->end > 0 && d->text[st->end - 1] != '\n')
		edit_add(ed, st->end, st->end,
		         "\nBuild-Profiles: " CONTROL_UDEB_PROFILE "\n");
	else
		edit_add(ed, st->end, st->end,
		         "Build-Profiles: " CONTROL_UDEB_PROFILE "\n");
	if (plan)
		convert_plan_note(plan, d->filename, st->line,
		                  "dropped the udeb %s from the build "
		                  "(Build-Profiles: " CONTROL_UDEB_PROFILE "): "
		                  "the installer's packages cannot be extras "
		                  "packages", deb822_find(st, "Package")->value);
}

/*
 * An extras package is never part of the standard system: any priority
 * but optional is refused by the gate (and extra is deprecated since
 * Debian Policy 4.0.1).
 */
static void
normalise_priority(const struct deb822 *d, const struct deb822_stanza *st,
                   struct edits *ed, struct convert_plan *plan)
{
	const struct deb822_field *f = deb822_find(st, "Priority");

	if (f == NULL || strcmp(f->value, "optional") == 0)
		return;
	/* The whole value as written, to the end of its last line: folded
	 * or empty, it is not strlen(f->value) bytes from value_start. */
	{
		bool newline = f->end > f->value_start &&
		               d->text[f->end - 1] == '\n';
		bool after_colon = d->text[f->value_start - 1] == ':';

		edit_add(ed, f->value_start, f->end,
		         after_colon ? (newline ? " optional\n" : " optional") :
		                       (newline ? "optional\n" : "optional"));
	}
	if (plan)
		convert_plan_note(plan, d->filename, f->line,
		                  "Priority: %s written as optional (%s)",
		                  f->value, strcmp(f->value, "extra") == 0 ?
		                  "extra is deprecated since Debian Policy "
		                  "4.0.1" : "an extras package is never part of "
		                  "the standard system");
}

/*
 * Essential and Protected make dpkg refuse to remove a package without
 * --force-remove-essential or --force-remove-protected: the gate refuses
 * both, and an app's package is removed as any other.  Debian's sed is
 * Essential.
 */
static void
drop_system_flags(const struct deb822 *d, const struct deb822_stanza *st,
                  struct edits *ed, struct convert_plan *plan)
{
	static const char *const flags[] = { "Essential", "Protected", NULL };
	int i;

	for (i = 0; flags[i]; i++) {
		const struct deb822_field *f = deb822_find(st, flags[i]);

		if (f == NULL || strcmp(f->value, "no") == 0)
			continue;
		edit_add(ed, f->start, f->end, "");
		if (plan)
			convert_plan_note(plan, d->filename, f->line,
			                  "dropped %s: %s: an extras package "
			                  "is never part of the system, and "
			                  "dpkg removes it as any other",
			                  f->name, f->value);
	}
}

/*
 * dh-cargo derives the crate it builds from the source's name
 * ("rust-fd-find" builds "fd-find"), which the rename changes: write the
 * crate it would have derived into X-Cargo-Crate, which it reads first.
 */
static void
keep_cargo_crate(const struct deb822 *d, struct edits *ed,
                 struct convert_plan *plan)
{
	const struct deb822_stanza *st = &d->stanzas[0];
	const struct deb822_field *f = deb822_find(st, "Source");
	const char *name = f->value, *end;
	char *line;

	if (deb822_find(st, "X-Cargo-Crate") != NULL ||
	    (strncmp(name, "rust-", 5) != 0 && strncmp(name, "ruzt-", 5) != 0))
		return;
	name += 5;
	end = name + strlen(name);
	/* "-1", "-0.8": a versioned crate's source (as dh-cargo's
	 * s/-[0-9]+(\.[0-9]+)*$//). */
	{
		const char *dash = strrchr(name, '-'), *v = dash ? dash + 1 : NULL;

		if (v && isdigit((unsigned char)v[0]) &&
		    isdigit((unsigned char)end[-1]) &&
		    strspn(v, "0123456789.") == (size_t)(end - v) &&
		    strstr(v, "..") == NULL)
			end = dash;
	}
	if (end == name)
		return;
	line = str_fmt("%sX-Cargo-Crate: %.*s\n",
	               d->text[f->end - 1] == '\n' ? "" : "\n",
	               (int)(end - name), name);
	edit_add(ed, f->end, f->end, line);
	free(line);
	if (plan)
		convert_plan_note(plan, d->filename, f->line,
		                  "X-Cargo-Crate: %.*s written: dh-cargo derives "
		                  "the crate it builds from the source name, "
		                  "which becomes %s%s", (int)(end - name), name,
		                  EXTRAS_PREFIX, f->value);
}

int
control_rewrite_text(const char *file, const char *text, size_t len,
                     struct control_info *info, char **out,
                     struct convert_plan *plan, struct dpkg_error *err)
{
	struct deb822 d;
	struct edits ed = { NULL, 0 };
	struct relation_owner own;
	int i, ret = -1;

	memset(info, 0, sizeof(*info));
	*out = NULL;
	if (deb822_parse(&d, file, text, len, err) < 0)
		return -1;
	if (read_names(&d, info, err) < 0)
		goto out;
	own.names = (const char *const *)info->packages;
	own.n = info->npackages;
	if (!has_prefix(deb822_find(&d.stanzas[0], "Source")->value))
		keep_cargo_crate(&d, &ed, plan);
	rename_value(&ed, deb822_find(&d.stanzas[0], "Source"));
	for (i = 0; i < d.nstanzas; i++) {
		if (i > 0 && is_udeb(&d.stanzas[i]))
			drop_udeb(&d, &d.stanzas[i], &ed, plan);
		normalise_priority(&d, &d.stanzas[i], &ed, plan);
		drop_system_flags(&d, &d.stanzas[i], &ed, plan);
		if (rewrite_relations(&d, &d.stanzas[i], i == 0, &own, &ed, plan,
		                      err) < 0)
			goto out;
	}
	*out = edits_apply(&ed, text, len);
	ret = 0;
out:
	edits_free(&ed);
	deb822_free(&d);
	return ret;
}

int
control_rewrite(struct convert_plan *plan, struct control_info *info,
                struct dpkg_error *err)
{
	char *text, *out;
	size_t len;
	mode_t mode;

	memset(info, 0, sizeof(*info));
	if (convert_read(plan, CONTROL_FILE, &text, &len, &mode, false, err) < 0)
		return -1;
	if (control_rewrite_text(CONTROL_FILE, text, len, info, &out, plan,
	                         err) < 0) {
		free(text);
		return -1;
	}
	if (strcmp(out, text) != 0)
		convert_plan_write(plan, CONTROL_FILE, out, strlen(out), mode);
	free(text);
	free(out);
	return 0;
}

void
control_info_free(struct control_info *info)
{
	strings_free(info->packages, info->npackages);
	free(info->app);
	memset(info, 0, sizeof(*info));
}
