/*
 * relation.c: relation fields located in their text, renamed and pruned.
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "namespace/namespace.h"
#include "debian/relation.h"

_Thread_local unsigned long relation_rewrite_steps;

struct scan {
	const char *text;
	size_t len;
	size_t pos;
	const char *file;
	int first_line;
	const char *field;
	struct dpkg_error *err;
	/* The line of counted_to, so that lines are counted once. */
	size_t counted_to;
	int counted_line;
};

static int
scan_line(struct scan *s, size_t pos)
{
	if (pos < s->counted_to) {
		s->counted_to = 0;
		s->counted_line = s->first_line;
	}
	for (; s->counted_to < pos && s->counted_to < s->len; s->counted_to++)
		if (s->text[s->counted_to] == '\n')
			s->counted_line++;
	return s->counted_line;
}

static int
scan_fail(struct scan *s, const char *what, size_t at, size_t n)
{
	return put_error_at(s->err, s->file, scan_line(s, at),
	                    "%s in %s relation '%.*s'", what, s->field,
	                    (int)n, s->text + at);
}

/* Skip blanks, newlines and whole comment lines. */
static void
skip_space(struct scan *s)
{
	while (s->pos < s->len) {
		char c = s->text[s->pos];

		if (c == '#' && s->pos > 0 && s->text[s->pos - 1] == '\n') {
			while (s->pos < s->len && s->text[s->pos] != '\n')
				s->pos++;
		} else if (c == ' ' || c == '\t' || c == '\n') {
			s->pos++;
		} else {
			break;
		}
	}
}

/* A name, an architecture or a version: up to a delimiter; ${...} whole. */
static size_t
scan_token(struct scan *s, const char *stops, bool *substvar)
{
	size_t start = s->pos;

	while (s->pos < s->len) {
		char c = s->text[s->pos];

		if (c == '$' && s->pos + 1 < s->len && s->text[s->pos + 1] == '{') {
			const char *close = memchr(s->text + s->pos, '}',
			                           s->len - s->pos);

			if (close == NULL)
				break;
			*substvar = true;
			s->pos = close - s->text + 1;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || strchr(stops, c))
			break;
		s->pos++;
	}
	return s->pos - start;
}

static int
check_name(struct scan *s, size_t at, size_t n)
{
	char name[256];
	const char *why;

	if (n == 0)
		return scan_fail(s, "missing package name", at,
		                 s->len - at > 40 ? 40 : s->len - at);
	if (n >= sizeof(name))
		return scan_fail(s, "package name too long", at, 40);
	memcpy(name, s->text + at, n);
	name[n] = '\0';
	why = pkg_name_is_illegal(name);
	/* dpkg folds case; a name that becomes a path must not need it. */
	if (why == NULL && strpbrk(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
		why = "must be lowercase";
	/* Policy 5.6.7: dpkg still accepts '_' for old packages; we do not. */
	if (why == NULL && strchr(name, '_'))
		why = "may hold only a-z, 0-9, '+', '-' and '.'";
	if (why != NULL)
		return put_error_at(s->err, s->file, scan_line(s, at),
		                    "invalid package name '%s' in %s: %s",
		                    name, s->field, why);
	return 0;
}

static int
check_version(struct scan *s, size_t at, size_t n)
{
	struct dpkg_version version;
	struct dpkg_error derr = DPKG_ERROR_OBJECT;
	char text[256];

	if (n == 0 || n >= sizeof(text))
		return scan_fail(s, "bad version", at, n ? 40 : 1);
	memcpy(text, s->text + at, n);
	text[n] = '\0';
	if (parseversion(&version, text, &derr) < 0) {
		put_error_at(s->err, s->file, scan_line(s, at),
		             "invalid version '%s' in %s: %s", text, s->field,
		             derr.str);
		dpkg_error_destroy(&derr);
		return -1;
	}
	return 0;
}

/* "(>= 1.0)": the operator, then the version up to ')'. */
static int
scan_restriction(struct scan *s, struct relation_alt *alt)
{
	static const char *const ops[] = { "<<", "<=", ">=", ">>", "=", "<", ">" };
	size_t open = s->pos, vstart;
	bool substvar = false;
	size_t n, i;

	s->pos++;
	skip_space(s);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t oplen = strlen(ops[i]);

		if (s->len - s->pos >= oplen &&
		    memcmp(s->text + s->pos, ops[i], oplen) == 0) {
			memcpy(alt->op, ops[i], oplen);
			s->pos += oplen;
			break;
		}
	}
	if (i == sizeof(ops) / sizeof(ops[0]))
		return scan_fail(s, "missing version operator", open, 
		                 s->pos - open + 1 <= s->len - open ?
		                 s->pos - open + 1 : s->len - open);
	skip_space(s);
	vstart = s->pos;
	n = scan_token(s, "()", &substvar);
	alt->version = vstart;
	alt->version_len = n;
	skip_space(s);
	if (s->pos >= s->len || s->text[s->pos] != ')')
		return scan_fail(s, "unclosed version restriction", open,
		                 s->pos - open);
	s->pos++;
	if (!substvar && check_version(s, vstart, n) < 0)
		return -1;
	return 0;
}

/* "[amd64 !i386]" or "<!nocheck>": kept as they are, only closed. */
static int
scan_bracketed(struct scan *s, char close)
{
	size_t open = s->pos;

	while (s->pos < s->len && s->text[s->pos] != close) {
		if (strchr(",|()[]<>", s->text[s->pos]) && s->pos != open)
			break;
		s->pos++;
	}
	if (s->pos >= s->len || s->text[s->pos] != close)
		return scan_fail(s, "unclosed list", open, s->pos - open);
	s->pos++;
	return 0;
}

static int
scan_alternative(struct scan *s, struct relation *r)
{
	struct relation_alt alt = { 0 };
	bool substvar = false;

	alt.name = s->pos;
	alt.name_len = scan_token(s, ",|()[]<>:", &substvar);
	alt.substvar = substvar;
	if (!substvar && check_name(s, alt.name, alt.name_len) < 0)
		return -1;
	if (alt.name_len == 0)
		return check_name(s, alt.name, 0);
	if (s->pos < s->len && s->text[s->pos] == ':') {
		bool archvar = false;

		s->pos++;
		if (scan_token(s, ",|()[]<>:", &archvar) == 0)
			return scan_fail(s, "missing architecture qualifier",
			                 alt.name, s->pos - alt.name);
	}
	skip_space(s);
	if (s->pos < s->len && s->text[s->pos] == '(') {
		if (scan_restriction(s, &alt) < 0)
			return -1;
		skip_space(s);
	}
	if (s->pos < s->len && s->text[s->pos] == '[') {
		if (scan_bracketed(s, ']') < 0)
			return -1;
		skip_space(s);
	}
	while (s->pos < s->len && s->text[s->pos] == '<') {
		if (scan_bracketed(s, '>') < 0)
			return -1;
		skip_space(s);
	}
	/* Doubled when full (a power of two): appends stay linear. */
	if ((r->nalts & (r->nalts - 1)) == 0)
		r->alts = m_realloc(r->alts, sizeof(alt) *
		                    (r->nalts ? 2 * r->nalts : 1));
	r->alts[r->nalts++] = alt;
	return 0;
}

int
relation_parse(struct relation_list *l, const char *text, size_t len,
               const char *file, int first_line, const char *field,
               struct dpkg_error *err)
{
	struct scan s = { text, len, 0, file, first_line, field, err, 0,
	                  first_line };

	l->items = NULL;
	l->nitems = 0;
	for (;;) {
		struct relation r = { 0 };

		skip_space(&s);
		if (s.pos >= len)
			break;
		if (text[s.pos] == ',') {
			/* An empty relation, as a trailing comma leaves. */
			s.pos++;
			continue;
		}
		r.start = s.pos;
		r.line = scan_line(&s, s.pos);
		for (;;) {
			if (scan_alternative(&s, &r) < 0) {
				free(r.alts);
				relation_list_free(l);
				return -1;
			}
			r.end = s.pos;
			while (r.end > r.start && strchr(" \t\n", text[r.end - 1]))
				r.end--;
			if (s.pos < len && text[s.pos] == '|') {
				s.pos++;
				skip_space(&s);
				continue;
			}
			break;
		}
		r.comma = RELATION_NO_COMMA;
		if (s.pos < len && text[s.pos] == ',') {
			r.comma = s.pos;
			s.pos++;
		} else if (s.pos < len) {
			free(r.alts);
			relation_list_free(l);
			return scan_fail(&s, "unexpected character", s.pos, 1);
		}
		if ((l->nitems & (l->nitems - 1)) == 0)
			l->items = m_realloc(l->items, sizeof(r) *
			                     (l->nitems ? 2 * l->nitems : 1));
		l->items[l->nitems++] = r;
	}
	return 0;
}

void
relation_list_free(struct relation_list *l)
{
	int i;

	for (i = 0; i < l->nitems; i++)
		free(l->items[i].alts);
	free(l->items);
	l->items = NULL;
	l->nitems = 0;
}

bool
relation_is_own(const struct relation_owner *own, const char *name, size_t len)
{
	size_t plen = strlen(EXTRAS_PREFIX);
	int i;

	if (len > plen && memcmp(name, EXTRAS_PREFIX, plen) == 0) {
		name += plen;
		len -= plen;
	}
	for (i = 0; i < own->n; i++)
		if (strlen(own->names[i]) == len &&
		    memcmp(own->names[i], name, len) == 0)
			return true;
	return false;
}

/* Whether the relation names a package of another source. */
static bool
names_other(const char *text, const struct relation *r,
            const struct relation_owner *own)
{
	int i;

	for (i = 0; i < r->nalts; i++)
		if (!r->alts[i].substvar &&
		    !relation_is_own(own, text + r->alts[i].name,
		                     r->alts[i].name_len))
			return true;
	return false;
}

/* Drop the lines (but the first) our cuts left blank. */
static void
drop_blank_lines(char *out)
{
	char *src = out, *dst = out;
	bool first = true;

	while (*src) {
		char *nl = strchr(src, '\n');
		size_t n = nl ? (size_t)(nl - src) + 1 : strlen(src);
		size_t i;
		bool blank = true;

		for (i = 0; i < n; i++)
			if (src[i] != ' ' && src[i] != '\t' && src[i] != '\n')
				blank = false;
		if (first && blank) {
			/* "Depends: \n bar": no blank after the colon. */
			*dst++ = '\n';
		} else if (first || !blank) {
			memmove(dst, src, n);
			dst += n;
		}
		first = false;
		src += n;
	}
	*dst = '\0';
}

char *
relation_rewrite(const char *text, size_t len, const struct relation_list *l,
                 const struct relation_owner *own, bool drop_others,
                 relation_drop_func *dropped, void *obj)
{
	bool *cut = m_malloc(len + 1);
	size_t out_max = len + 1, o = 0, i;
	char *out;
	bool *drop;
	size_t to;
	int kept = 0, k;

	memset(cut, 0, len + 1);
	drop = m_malloc(sizeof(bool) * (l->nitems + 1));
	for (k = 0; k < l->nitems; k++) {
		relation_rewrite_steps++;
		drop[k] = drop_others && names_other(text, &l->items[k], own);
		if (!drop[k])
			kept++;
	}
	for (k = 0; k < l->nitems; k++) {
		const struct relation *r = &l->items[k];
		size_t from = r->start;
		int p;

		relation_rewrite_steps++;
		if (!drop[k])
			continue;
		if (dropped) {
			char *what = m_malloc(r->end - r->start + 1);

			memcpy(what, text + r->start, r->end - r->start);
			what[r->end - r->start] = '\0';
			dropped(obj, what, r->line);
			free(what);
		}
		if (r->comma != RELATION_NO_COMMA) {
			/* "a, b": take "a, " with the blanks after the comma. */
			to = r->comma + 1;
			while (to < len && (text[to] == ' ' || text[to] == '\t'))
				to++;
		} else {
			/* The last one: take the comma of the last kept one. */
			for (p = k - 1; p >= 0 && drop[p]; p--)
				;
			if (p >= 0)
				from = l->items[p].end;
			to = r->end;
		}
		memset(cut + from, 1, to - from);
	}
	free(drop);
	/* Comments stay, whatever they stood between. */
	for (i = 1; i < len; i++)
		if (text[i] == '#' && text[i - 1] == '\n')
			for (to = i - 1; to < len && (to == i - 1 || text[to] != '\n'); to++)
				cut[to] = 0;
	if (kept == 0) {
		free(cut);
		return NULL;
	}
	out = m_malloc(out_max);
	for (i = 0; i < len; i++) {
		relation_rewrite_steps++;
		if (cut[i])
			continue;
		out[o++] = text[i];
	}
	out[o] = '\0';
	free(cut);
	drop_blank_lines(out);
	return out;
}
