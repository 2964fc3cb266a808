/*
 * review-control.c: names, control fields and relations.
 *
 * An extras package lives in the extras- name space, takes nothing over
 * from the system (no Pre-Depends, no Essential, Protected or Important,
 * Priority optional) and declares Conflicts, Breaks, Replaces and Provides
 * only on packages of its own source: anything else could push a system
 * package aside or stand in for one.  It is a deb (a udeb is the
 * installer's, which dpkg installs all the same), and its fields are text
 * a terminal may show (dpkg -s, apt show): no control character, no
 * escape sequence, UTF-8.
 */
#include <string.h>

#include "debian/relation.h"
#include "review/review.h"

static const char *const own_only_fields[] = {
	"Conflicts", "Breaks", "Replaces", "Provides", NULL,
};

/* Fields whose presence (with any value but "no") is refused. */
static const char *const yes_fields[] = {
	"Essential", "Protected", "Important", NULL,
};

static bool
has_extras_name(const char *name)
{
	size_t n = strlen(EXTRAS_PREFIX);

	return strncmp(name, EXTRAS_PREFIX, n) == 0 && name[n] != '\0';
}

static void
check_names(struct review *r, size_t i)
{
	const struct review_package *p = &r->packages[i];
	size_t j;

	if (!has_extras_name(p->deb.package))
		review_problem(r, i, "name", NULL, "package name '%s' does not "
		               "start with '%s'", p->deb.package, EXTRAS_PREFIX);
	if (!has_extras_name(p->deb.source))
		review_problem(r, i, "name", NULL, "source name '%s' does not "
		               "start with '%s'", p->deb.source, EXTRAS_PREFIX);
	/* One app id (and root) for every package of one source. */
	for (j = 0; j < i; j++) {
		const struct review_package *q = &r->packages[j];

		if (!review_same_source(p, q) || !p->namespace_ok ||
		    !q->namespace_ok)
			continue;
		if (strcmp(p->ns.path, q->ns.path) != 0) {
			review_problem(r, i, "name", NULL, "namespace %s differs "
			               "from %s of %s, from the same source %s",
			               p->ns.path, q->ns.path, q->deb.package,
			               p->deb.source);
			break;
		}
	}
}

/* Whether NAME (LEN bytes) is a package of P's source under review. */
static bool
is_own_package(const struct review *r, const struct review_package *p,
               const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < r->npackages; i++) {
		const struct review_package *q = &r->packages[i];

		if (review_same_source(p, q) && strlen(q->deb.package) == len &&
		    strncmp(q->deb.package, name, len) == 0)
			return true;
	}
	return false;
}

static void
check_fields(struct review *r, size_t i)
{
	const struct review_package *p = &r->packages[i];
	const char *v;
	int k;

	for (k = 0; yes_fields[k]; k++) {
		v = debfile_field(&p->deb, yes_fields[k]);
		if (v != NULL && strcmp(v, "no") != 0)
			review_problem(r, i, "control", NULL, "%s: %s: an extras "
			               "package cannot be %s", yes_fields[k], v,
			               yes_fields[k]);
	}
	v = debfile_field(&p->deb, "Priority");
	if (v != NULL && strcmp(v, "optional") != 0)
		review_problem(r, i, "control", NULL, "Priority: %s: must be "
		               "optional", v);
	v = debfile_field(&p->deb, "Package-Type");
	if (v != NULL && strcmp(v, "deb") != 0)
		review_problem(r, i, "control", NULL, "Package-Type: %s: an "
		               "extras package is a deb: remove the field", v);
	if (debfile_field(&p->deb, "Pre-Depends") != NULL)
		review_problem(r, i, "relation", NULL, "Pre-Depends: an extras "
		               "package cannot pre-depend on anything");
}

/*
 * Where VALUE (LEN bytes) holds what a terminal would act on rather than
 * show: a control character but the tab and the newline of a folded
 * field, DEL, a C1 control (U+0080..U+009F, CSI among them) or a byte
 * that is not UTF-8 (a bare 0x9b is CSI to an 8-bit terminal).  Returns
 * its offset, or -1; *WHAT says which.
 */
static long
terminal_control(const unsigned char *v, size_t len, const char **what)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = v[i];
		size_t n, k;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
				*what = c == 0x1b ? "an escape character" :
				        "a control character";
				return (long)i;
			}
			i++;
			continue;
		}
		n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 :
		    c >= 0xf0 && c <= 0xf4 ? 3 : 0;
		for (k = 1; n > 0 && k <= n; k++)
			if (i + k >= len || (v[i + k] & 0xc0) != 0x80)
				n = 0;
		if (n == 0) {
			*what = "a byte that is not UTF-8";
			return (long)i;
		}
		if (c == 0xc2 && v[i + 1] < 0xa0) {
			*what = "a C1 control character";
			return (long)i;
		}
		i += n + 1;
	}
	return -1;
}

static void
check_text(struct review *r, size_t i)
{
	const struct deb822_stanza *s = r->packages[i].deb.control;
	int k;

	for (k = 0; s != NULL && k < s->nfields; k++) {
		const struct deb822_field *f = &s->fields[k];
		const char *what;
		long at = terminal_control((const unsigned char *)f->value,
		                           strlen(f->value), &what), j;
		int line = f->line;

		if (at < 0)
			continue;
		for (j = 0; j < at; j++)
			line += f->value[j] == '\n';
		review_problem(r, i, "control", NULL, "%s: line %d: %s (0x%02x), "
		               "which a terminal showing the field would act on: "
		               "remove it", f->name, line, what,
		               (unsigned char)f->value[at]);
	}
}

static void
check_relations(struct review *r, size_t i)
{
	const struct review_package *p = &r->packages[i];
	int k, j, a;

	for (k = 0; own_only_fields[k]; k++) {
		const struct deb822_field *f =
			deb822_find(p->deb.control, own_only_fields[k]);
		struct relation_list l;
		struct dpkg_error cerr = DPKG_ERROR_INIT;

		if (f == NULL)
			continue;
		if (relation_parse(&l, f->value, strlen(f->value), "control",
		                   f->line, f->name, &cerr) < 0) {
			review_problem(r, i, "relation", NULL, "%s", cerr.str);
			dpkg_error_destroy(&cerr);
			continue;
		}
		for (j = 0; j < l.nitems; j++)
			for (a = 0; a < l.items[j].nalts; a++) {
				const struct relation_alt *alt =
					&l.items[j].alts[a];
				const char *name = f->value + alt->name;

				if (!alt->substvar &&
				    is_own_package(r, p, name, alt->name_len))
					continue;
				review_problem(r, i, "relation", NULL, "%s: %.*s: "
				               "not a package of the source %s",
				               own_only_fields[k],
				               (int)alt->name_len, name,
				               p->deb.source);
			}
		relation_list_free(&l);
	}
}

void
review_control(struct review *r)
{
	size_t i;

	for (i = 0; i < r->npackages; i++) {
		check_names(r, i);
		check_fields(r, i);
		check_text(r, i);
		check_relations(r, i);
	}
}
