/*
 * deb822.c: deb822 stanzas located in their text, parsed by libdpkg.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/varbuf.h>
#include <dpkg/parsedump.h>

#include "base/dpkg-catch.h"
#include "debian/deb822.h"

/* The comment-free copy libdpkg parses, and where its lines came from. */
struct stripped {
	char *text;
	size_t len;
	size_t *copy_line;   /* offset of each copied line in the copy */
	size_t *orig_line;   /* offset of the same line in the original */
	int *orig_lno;       /* its line number in the original */
	int nlines;
};

struct collect {
	struct deb822 *d;
	struct stripped *s;
	struct deb822_stanza *stanza;
};

static void
strip_comments(struct stripped *s, const char *text, size_t len)
{
	size_t pos = 0;
	int lno = 1;

	s->text = m_malloc(len + 2);
	s->len = 0;
	s->copy_line = m_malloc(sizeof(size_t) * (len + 2));
	s->orig_line = m_malloc(sizeof(size_t) * (len + 2));
	s->orig_lno = m_malloc(sizeof(int) * (len + 2));
	s->nlines = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t linelen = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;

		if (text[pos] != '#') {
			s->copy_line[s->nlines] = s->len;
			s->orig_line[s->nlines] = pos;
			s->orig_lno[s->nlines] = lno;
			s->nlines++;
			memcpy(s->text + s->len, text + pos, linelen);
			s->len += linelen;
		}
		pos += linelen;
		lno++;
	}
	/* A missing final newline is no reason to refuse a file. */
	if (s->len > 0 && s->text[s->len - 1] != '\n')
		s->text[s->len++] = '\n';
	s->text[s->len] = '\0';
}

static void
stripped_free(struct stripped *s)
{
	free(s->text);
	free(s->copy_line);
	free(s->orig_line);
	free(s->orig_lno);
}

/* The copied line holding copy offset OFF. */
static int
copy_line_index(const struct stripped *s, size_t off)
{
	int lo = 0, hi = s->nlines - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (s->copy_line[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static size_t
orig_offset(const struct stripped *s, size_t off)
{
	int i = copy_line_index(s, off);

	return s->orig_line[i] + (off - s->copy_line[i]);
}

/* The original offset just past the line holding copy offset OFF. */
static size_t
orig_line_end(const struct stripped *s, const struct deb822 *d, size_t off)
{
	int i = copy_line_index(s, off);
	const char *nl = memchr(d->text + s->orig_line[i], '\n',
	                        d->len - s->orig_line[i]);

	return nl ? (size_t)(nl - d->text) + 1 : d->len;
}

static void
collect_field(struct parsedb_state *ps, struct field_state *fs, void *obj)
{
	struct collect *c = obj;
	struct deb822_stanza *st = c->stanza;
	struct deb822_field *f;
	size_t fstart = fs->fieldstart - ps->data;
	size_t vstart = fs->valuestart - ps->data;
	size_t vend = vstart + fs->valuelen;

	st->fields = m_realloc(st->fields, sizeof(*f) * (st->nfields + 1));
	f = &st->fields[st->nfields++];
	f->name = m_malloc(fs->fieldlen + 1);
	memcpy(f->name, fs->fieldstart, fs->fieldlen);
	f->name[fs->fieldlen] = '\0';
	f->value = m_malloc(fs->valuelen + 1);
	memcpy(f->value, fs->valuestart, fs->valuelen);
	f->value[fs->valuelen] = '\0';
	f->line = c->s->orig_lno[copy_line_index(c->s, fstart)];
	f->start = orig_offset(c->s, fstart);
	f->value_start = orig_offset(c->s, vstart);
	/* An empty value ends on the field's own line. */
	f->end = orig_line_end(c->s, c->d, vend > vstart ? vend - 1 : vstart);
	if (st->nfields == 1) {
		st->line = f->line;
		st->start = f->start;
	}
	st->end = f->end;
}

/* One parse by libdpkg, which reports through ohshit(). */
struct deb822_run {
	struct parsedb_state *ps;
	struct field_state fs;
	struct collect c;
};

static void
parse_stanzas(void *arg)
{
	struct deb822_run *r = arg;
	struct deb822 *d = r->c.d;

	while (!parse_at_eof(r->ps)) {
		struct deb822_stanza *st;

		/* One spare slot, so deb822_free() finds a half-filled one. */
		d->stanzas = m_realloc(d->stanzas,
		                       sizeof(*st) * (d->nstanzas + 2));
		st = &d->stanzas[d->nstanzas];
		memset(st, 0, sizeof(*st) * 2);
		r->c.stanza = st;
		if (!parse_stanza(r->ps, &r->fs, collect_field, &r->c))
			break;
		d->nstanzas++;
	}
}

int
deb822_parse(struct deb822 *d, const char *filename, const char *text,
             size_t len, struct dpkg_error *err)
{
	struct parsedb_state *ps;
	struct stripped s;
	struct deb822_run r;
	char msg[ERROR_AT_MAX];
	const char *eof;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	d->filename = filename;
	d->text = text;
	d->len = len;
	if (memchr(text, '\0', len) != NULL)
		return put_error_at(err, filename, 0, "contains a NUL byte");
	/* libdpkg ends a stanza at ^Z (MS-DOS's end of file), dpkg-source
	 * does not: the two would read different stanzas. */
	if ((eof = memchr(text, '\032', len)) != NULL) {
		size_t at = (size_t)(eof - text);

		d->len = at;
		return put_error_at(err, filename, deb822_line_of(d, at),
		                    "contains byte 0x1a (^Z), which libdpkg "
		                    "reads as the end of a stanza and "
		                    "dpkg-source does not");
	}
	strip_comments(&s, text, len);

	ps = parsedb_new(filename, -1, pdb_single_stanza);
	ps->data = s.text;
	ps->dataptr = s.text;
	ps->endptr = s.text + s.len;
	ps->lno = 1;
	memset(&r, 0, sizeof(r));
	r.ps = ps;
	r.c.d = d;
	r.c.s = &s;

	if (dpkg_catch(parse_stanzas, &r, msg, sizeof(msg)) < 0) {
		int lno = ps->lno - 1;
		int line = lno >= 0 && lno < s.nlines ? s.orig_lno[lno] :
		           (s.nlines ? s.orig_lno[s.nlines - 1] : 0);

		put_error_at(err, filename, line, "%s", dpkg_catch_reason(msg));
		deb822_free(d);
		ret = -1;
	}
	ps->data = NULL;
	parsedb_close(ps);
	stripped_free(&s);
	varbuf_destroy(&r.fs.value);
	return ret;
}

void
deb822_free(struct deb822 *d)
{
	int i, j;

	for (i = 0; i < d->nstanzas; i++) {
		for (j = 0; j < d->stanzas[i].nfields; j++) {
			free(d->stanzas[i].fields[j].name);
			free(d->stanzas[i].fields[j].value);
		}
		free(d->stanzas[i].fields);
	}
	/* A stanza being filled when parsing failed is past nstanzas. */
	if (d->stanzas && d->stanzas[d->nstanzas].fields) {
		for (j = 0; j < d->stanzas[d->nstanzas].nfields; j++) {
			free(d->stanzas[d->nstanzas].fields[j].name);
			free(d->stanzas[d->nstanzas].fields[j].value);
		}
		free(d->stanzas[d->nstanzas].fields);
	}
	free(d->stanzas);
	d->stanzas = NULL;
	d->nstanzas = 0;
}

const struct deb822_field *
deb822_find(const struct deb822_stanza *s, const char *name)
{
	int i;

	for (i = 0; i < s->nfields; i++)
		if (strcasecmp(s->fields[i].name, name) == 0)
			return &s->fields[i];
	return NULL;
}

int
deb822_line_of(const struct deb822 *d, size_t offset)
{
	int line = 1;
	size_t i;

	for (i = 0; i < offset && i < d->len; i++)
		if (d->text[i] == '\n')
			line++;
	return line;
}

static int
field_order(const void *a, const void *b)
{
	const struct deb822_field *const *fa = a, *const *fb = b;
	int c = strcasecmp((*fa)->name, (*fb)->name);

	if (c != 0)
		return c;
	return *fa < *fb ? -1 : *fa > *fb;
}

/*
 * Sorted by name, then by position: a stanza of a million one-byte fields
 * must not take a million squared comparisons.
 */
const char *
deb822_duplicate_field(const struct deb822_stanza *s)
{
	const struct deb822_field **by_name, *first = NULL;
	int i;

	if (s->nfields < 2)
		return NULL;
	by_name = m_malloc(sizeof(*by_name) * s->nfields);
	for (i = 0; i < s->nfields; i++)
		by_name[i] = &s->fields[i];
	qsort(by_name, s->nfields, sizeof(*by_name), field_order);
	/* Of the fields repeating an earlier one, the first in the text. */
	for (i = 1; i < s->nfields; i++)
		if (strcasecmp(by_name[i]->name, by_name[i - 1]->name) == 0 &&
		    (first == NULL || by_name[i] < first))
			first = by_name[i];
	free(by_name);
	return first != NULL ? first->name : NULL;
}
