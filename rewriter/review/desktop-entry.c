/*
 * desktop-entry.c: .desktop and D-Bus .service files as the desktop reads
 * them.
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "review/desktop-entry.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

void
desktop_reader_init(struct desktop_reader *rd, const char *buf, size_t len)
{
	rd->p = buf;
	rd->end = buf + len;
	rd->lineno = 0;
	rd->group = NULL;
	rd->group_len = 0;
}

bool
desktop_reader_next(struct desktop_reader *rd, struct desktop_line *l)
{
	const char *s, *e, *nl, *eq, *k, *bracket;

	if (rd->p >= rd->end)
		return false;
	memset(l, 0, sizeof(*l));
	l->lineno = ++rd->lineno;
	nl = memchr(rd->p, '\n', (size_t)(rd->end - rd->p));
	s = rd->p;
	e = nl ? nl : rd->end;
	rd->p = nl ? nl + 1 : rd->end;
	/* GKeyFile skips leading blanks and drops a CR before the newline. */
	while (s < e && (is_blank(*s) || *s == '\r'))
		s++;
	if (e > s && e[-1] == '\r')
		e--;
	l->group = rd->group;
	l->group_len = rd->group_len;
	if (s == e || *s == '#') {
		l->kind = DESKTOP_LINE_BLANK;
		return true;
	}
	if (*s == '[') {
		const char *close = e;

		while (close > s && close[-1] != ']')
			close--;
		if (close <= s + 1) {
			l->kind = DESKTOP_LINE_INVALID;
			return true;
		}
		rd->group = s + 1;
		rd->group_len = (size_t)(close - 1 - (s + 1));
		l->kind = DESKTOP_LINE_GROUP;
		l->group = rd->group;
		l->group_len = rd->group_len;
		return true;
	}
	eq = memchr(s, '=', (size_t)(e - s));
	if (eq == NULL || eq == s) {
		l->kind = DESKTOP_LINE_INVALID;
		return true;
	}
	k = eq;
	while (k > s && is_blank(k[-1]))
		k--;
	l->kind = DESKTOP_LINE_KEY;
	bracket = memchr(s, '[', (size_t)(k - s));
	if (bracket != NULL && k[-1] == ']') {
		l->key_len = (size_t)(bracket - s);
		l->locale = bracket + 1;
		l->locale_len = (size_t)(k - 1 - (bracket + 1));
	} else {
		l->key_len = (size_t)(k - s);
		l->locale = k;
	}
	l->key = s;
	l->value = eq + 1;
	while (l->value < e && is_blank(*l->value))
		l->value++;
	l->value_len = (size_t)(e - l->value);
	while (l->value_len > 0 && is_blank(l->value[l->value_len - 1]))
		l->value_len--;
	return true;
}

bool
desktop_line_is_key(const struct desktop_line *l, const char *key)
{
	return l->kind == DESKTOP_LINE_KEY && l->key_len == strlen(key) &&
	       memcmp(l->key, key, l->key_len) == 0;
}

bool
desktop_line_in_group(const struct desktop_line *l, const char *group)
{
	return l->group_len == strlen(group) &&
	       memcmp(l->group, group, l->group_len) == 0;
}

/* The string escapes of a key file value (\s \n \t \r \\) undone into
 * OUT; -1 for another escape, which GKeyFile refuses. */
static int
unescape(const char *v, size_t len, char *out, size_t *outlen)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (v[i] != '\\') {
			out[n++] = v[i];
			continue;
		}
		if (++i == len)
			return -1;
		switch (v[i]) {
		case 's': out[n++] = ' '; break;
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case '\\': out[n++] = '\\'; break;
		default: return -1;
		}
	}
	*outlen = n;
	return 0;
}

/* The Desktop Entry Specification's reserved characters, but for the
 * blanks (separators here) and the double quote. */
static bool
is_reserved(char c)
{
	return strchr("'\\><~|&;$*?#()`", c) != NULL && c != '\0';
}

static bool
is_separator(enum exec_syntax syntax, char c)
{
	return c == ' ' || c == '\t' || c == '\n' ||
	       (syntax == EXEC_DBUS && c == '\r');
}

static void
mark(struct exec_word *w, const char *why)
{
	if (w->unplain == NULL)
		w->unplain = why;
}

/*
 * One word of S (N bytes) from *I, appended to OUT at *O.  Returns 0, or
 * -1 with *WHY.
 */
static int
split_word(enum exec_syntax syntax, const char *s, size_t n, size_t *i,
           char *out, size_t *o, struct exec_word *w, const char **why)
{
	bool quoted = false, bare = false;
	size_t j = *i;

	while (j < n && !is_separator(syntax, s[j])) {
		char c = s[j], q;

		if (c == '"' || (c == '\'' && syntax == EXEC_DBUS)) {
			q = c;
			quoted = true;
			for (j++; j < n && s[j] != q; j++) {
				if (q == '"' && s[j] == '\\' && j + 1 < n &&
				    strchr("\"`$\\\n", s[j + 1]) != NULL &&
				    s[j + 1] != '\0') {
					if (s[j + 1] != '\n')
						out[(*o)++] = s[j + 1];
					j++;
					continue;
				}
				if (q == '"' && s[j] == '\\')
					mark(w, "holds an escape sequence the "
					     "readers differ on");
				if (syntax == EXEC_DESKTOP && s[j] == '%')
					mark(w, "holds a field code inside "
					     "quotes");
				out[(*o)++] = s[j];
			}
			if (j == n) {
				*why = "an unterminated quote";
				return -1;
			}
			j++;
			continue;
		}
		bare = true;
		if (syntax == EXEC_DBUS && c == '\\') {
			if (j + 1 == n) {
				*why = "a backslash at the end";
				return -1;
			}
			mark(w, "holds a backslash outside quotes");
			out[(*o)++] = s[j + 1];
			j += 2;
			continue;
		}
		if (syntax == EXEC_DESKTOP && c == '%') {
			char code = j + 1 < n ? s[j + 1] : '\0';

			if (code == '%') {
				out[(*o)++] = '%';
				j += 2;
				continue;
			}
			mark(w, code != '\0' && strchr("fFuUickdDnNvm", code) ?
			     "holds a field code" : "holds an unknown field code");
		} else if (syntax == EXEC_DESKTOP && is_reserved(c)) {
			mark(w, "holds a reserved character outside quotes");
		} else if (c == '\'' || c == '`' || c == '$') {
			mark(w, "holds a quote or expansion character");
		}
		out[(*o)++] = c;
		j++;
	}
	if (quoted && bare)
		mark(w, "is partly quoted");
	out[(*o)++] = '\0';
	*i = j;
	return 0;
}

int
exec_split(enum exec_syntax syntax, const char *value, size_t len,
           struct exec_words *w, const char **why)
{
	char *buf, *out;
	size_t n, i = 0, o = 0, cap = 0;

	w->words = NULL;
	w->n = 0;
	buf = m_malloc(len + 1);
	if (syntax == EXEC_DESKTOP) {
		if (unescape(value, len, buf, &n) < 0) {
			free(buf);
			*why = "an invalid escape sequence (\\s, \\n, \\t, \\r "
			       "and \\\\ only)";
			return -1;
		}
	} else {
		memcpy(buf, value, len);
		n = len;
	}
	/* Each byte is copied once, and each word adds its NUL. */
	out = m_malloc(2 * n + 2);
	for (;;) {
		bool after_odd_blank = false;
		struct exec_word word = { NULL, NULL };
		size_t start;

		while (i < n && is_separator(syntax, buf[i])) {
			if (buf[i] != ' ')
				after_odd_blank = true;
			i++;
		}
		if (i == n)
			break;
		/* D-Bus: a word starting with '#' starts a comment. */
		if (syntax == EXEC_DBUS && buf[i] == '#')
			break;
		if (syntax == EXEC_DESKTOP && after_odd_blank)
			word.unplain = "follows a tab or newline, which must be "
			               "quoted";
		start = o;
		if (split_word(syntax, buf, n, &i, out, &o, &word, why) < 0) {
			free(buf);
			free(out);
			exec_words_free(w);
			return -1;
		}
		if (w->n == cap) {
			cap = cap ? 2 * cap : 8;
			w->words = m_realloc(w->words, cap * sizeof(*w->words));
		}
		word.text = m_strdup(out + start);
		w->words[w->n++] = word;
	}
	free(buf);
	free(out);
	return 0;
}

void
exec_words_free(struct exec_words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->words[i].text);
	free(w->words);
	w->words = NULL;
	w->n = 0;
}

void
desktop_string_list(const char *value, size_t len,
                    void (*each)(const char *item, void *ctx), void *ctx)
{
	char *item = m_malloc(len + 1);
	size_t i, n = 0;

	for (i = 0; i <= len; i++) {
		if (i == len || value[i] == ';') {
			item[n] = '\0';
			if (n > 0)
				each(item, ctx);
			n = 0;
			continue;
		}
		if (value[i] == '\\' && i + 1 < len) {
			char c = value[++i];

			item[n++] = c == 's' ? ' ' : c == 'n' ? '\n' :
			            c == 't' ? '\t' : c == 'r' ? '\r' : c;
			continue;
		}
		item[n++] = value[i];
	}
	free(item);
}
