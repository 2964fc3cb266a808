/*
 * template.c: the files of templates/, AppArmor knowledge kept as data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strings.h"
#include "base/template.h"

static int
add_field(struct template *t, const char *key, size_t keylen,
          const char *value, size_t valuelen)
{
	struct template_field *f;

	f = realloc(t->fields, (t->n_fields + 1) * sizeof(*f));
	if (f == NULL)
		return -1;
	t->fields = f;
	f += t->n_fields;
	f->key = strndup(key, keylen);
	f->value = strndup(value, valuelen);
	if (f->key == NULL || f->value == NULL) {
		free(f->key);
		free(f->value);
		return -1;
	}
	t->n_fields++;
	return 0;
}

/* Append a continuation line to the last field, joined by a space. */
static int
continue_field(struct template *t, const char *more, size_t len)
{
	struct template_field *f = &t->fields[t->n_fields - 1];
	size_t old = strlen(f->value);
	char *v = realloc(f->value, old + 1 + len + 1);

	if (v == NULL)
		return -1;
	v[old] = ' ';
	memcpy(v + old + 1, more, len);
	v[old + 1 + len] = '\0';
	f->value = v;
	return 0;
}

/* "# Key: value", "#  continued", or any other comment. */
static int
parse_header_line(struct template *t, const char *line, size_t len)
{
	size_t i = 1, k;

	if (len >= 3 && line[1] == ' ' && line[2] == ' ' && t->n_fields > 0) {
		for (i = 3; i < len && line[i] == ' '; i++)
			;
		return continue_field(t, line + i, len - i);
	}
	if (len < 2 || line[1] != ' ')
		return 0;
	for (k = 2; k < len && ((line[k] >= 'A' && line[k] <= 'Z') ||
	                        (line[k] >= 'a' && line[k] <= 'z') ||
	                        line[k] == '-'); k++)
		;
	if (k == 2 || k + 1 >= len || line[k] != ':' || line[k + 1] != ' ')
		return 0;
	return add_field(t, line + 2, k - 2, line + k + 2, len - k - 2);
}

static int
read_file(struct template *t, const char *path, struct dpkg_error *err)
{
	FILE *fp = fopen(path, "re");
	size_t len;

	if (fp == NULL && errno == ENOENT)
		return 1;
	if (fp == NULL) {
		dpkg_put_error(err, "%s: cannot open: %s", path,
		               strerror(errno));
		return -1;
	}
	t->text = malloc(TEMPLATE_FILE_MAX + 1);
	if (t->text == NULL) {
		fclose(fp);
		dpkg_put_error(err, "%s: out of memory", path);
		return -1;
	}
	len = fread(t->text, 1, TEMPLATE_FILE_MAX + 1, fp);
	if (ferror(fp)) {
		fclose(fp);
		dpkg_put_error(err, "%s: cannot read: %s", path,
		               strerror(errno));
		return -1;
	}
	fclose(fp);
	if (len > TEMPLATE_FILE_MAX) {
		dpkg_put_error(err, "%s: is larger than %d bytes", path,
		               TEMPLATE_FILE_MAX);
		return -1;
	}
	if (memchr(t->text, '\0', len) != NULL) {
		dpkg_put_error(err, "%s: contains a NUL byte", path);
		return -1;
	}
	t->text[len] = '\0';
	return 0;
}

int
template_load(struct template *t, const char *path, struct dpkg_error *err)
{
	const char *p;
	int rc;

	memset(t, 0, sizeof(*t));
	t->path = strdup(path);
	if (t->path == NULL) {
		dpkg_put_error(err, "%s: out of memory", path);
		return -1;
	}
	rc = read_file(t, path, err);
	if (rc != 0) {
		template_free(t);
		return rc;
	}
	/* The header: the leading lines that start with '#'. */
	t->body_line = 1;
	for (p = t->text; *p == '#'; t->body_line++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (parse_header_line(t, p, len) < 0) {
			dpkg_put_error(err, "%s: out of memory", path);
			template_free(t);
			return -1;
		}
		p += len + (nl != NULL);
	}
	/* One blank line may separate the header from the body. */
	if (*p == '\n') {
		p++;
		t->body_line++;
	}
	t->body = p;
	return 0;
}

void
template_free(struct template *t)
{
	size_t i;

	for (i = 0; i < t->n_fields; i++) {
		free(t->fields[i].key);
		free(t->fields[i].value);
	}
	free(t->fields);
	free(t->text);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

const char *
template_field(const struct template *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->n_fields; i++)
		if (strcmp(t->fields[i].key, key) == 0)
			return t->fields[i].value;
	return NULL;
}

static const struct template_subst *
find_subst(const struct template_subst *subst, size_t n,
           const char *token, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(subst[i].token) == len &&
		    memcmp(subst[i].token, token, len) == 0)
			return &subst[i];
	return NULL;
}

/* The length of the placeholder name at S ("@NAME@" -> 4), or 0. */
static size_t
placeholder(const char *s, const char *end)
{
	const char *p = s + 1;

	while (p < end && ((*p >= 'A' && *p <= 'Z') || *p == '_'))
		p++;
	if (p == s + 1 || p >= end || *p != '@')
		return 0;
	return (size_t)(p - s - 1);
}

/* Append N bytes at S to *OUT (*LEN bytes of *CAP, NUL-terminated). */
static bool
append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t want = *cap ? *cap : 128;
		char *grown;

		while (*len + n + 1 > want)
			want *= 2;
		grown = realloc(*out, want);
		if (grown == NULL)
			return false;
		*out = grown;
		*cap = want;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
	return true;
}

/* A growing buffer, not a memory stream: this runs for every line of
 * every snippet, and open_memstream zeroes a page-sized buffer each time. */
char *
template_expand_line(const struct template *t, unsigned long lineno,
                     const char *line, size_t len,
                     const struct template_subst *subst, size_t n,
                     struct dpkg_error *err)
{
	const char *p = line, *end = line + len;
	char *out = NULL;
	size_t outlen = 0, cap = 0;

	if (!append(&out, &outlen, &cap, "", 0))
		goto oom;
	while (p < end) {
		const char *at = memchr(p, '@', (size_t)(end - p));
		const struct template_subst *s;
		size_t k;

		if (at == NULL)
			at = end;
		if (!append(&out, &outlen, &cap, p, (size_t)(at - p)))
			goto oom;
		p = at;
		if (p == end)
			break;
		k = placeholder(p, end);
		if (k == 0) {
			if (!append(&out, &outlen, &cap, p++, 1))
				goto oom;
			continue;
		}
		s = find_subst(subst, n, p + 1, k);
		if (s == NULL) {
			dpkg_put_error(err, "%s:%lu: unknown placeholder "
			               "@%.*s@", t->path, lineno, (int)k,
			               p + 1);
			free(out);
			return NULL;
		}
		if (!append(&out, &outlen, &cap, s->value, strlen(s->value)))
			goto oom;
		p += k + 2;
	}
	return out;
oom:
	free(out);
	dpkg_put_error(err, "%s: out of memory", t->path);
	return NULL;
}

int
template_list_load(const char *path, char ***lines, size_t *n,
                   struct dpkg_error *err)
{
	char *line = NULL;
	size_t size = 0, total = 0;
	ssize_t len;
	FILE *fp;

	*lines = NULL;
	*n = 0;
	fp = fopen(path, "r");
	if (fp == NULL) {
		dpkg_put_error(err, "%s: cannot open: %s", path,
		               strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &size, fp)) >= 0) {
		total += (size_t)len;
		if (total > TEMPLATE_FILE_MAX)
			break;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		*lines = realloc(*lines, (*n + 1) * sizeof(**lines));
		if (*lines == NULL || ((*lines)[*n] = strdup(line)) == NULL)
			abort();
		(*n)++;
	}
	free(line);
	if (ferror(fp) || total > TEMPLATE_FILE_MAX) {
		if (total > TEMPLATE_FILE_MAX)
			dpkg_put_error(err, "%s: is larger than %d bytes", path,
			               TEMPLATE_FILE_MAX);
		else
			dpkg_put_error(err, "%s: cannot read: %s", path,
			               strerror(errno));
		fclose(fp);
		strings_free(*lines, *n);
		*lines = NULL;
		*n = 0;
		return -1;
	}
	fclose(fp);
	return 0;
}
