/*
 * json.c: write JSON reports.
 */
#include <stdint.h>
#include <string.h>

#include "base/json.h"

void
json_init(struct json *j, FILE *fp)
{
	j->fp = fp;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
}

/* Emit the separator a new value needs at the current position. */
static void
json_value_prefix(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->fp);
	j->need_comma[j->depth] = true;
}

static void
json_open(struct json *j, char c)
{
	json_value_prefix(j);
	fputc(c, j->fp);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void
json_close(struct json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->fp);
	if (j->depth == 0)
		fputc('\n', j->fp);
}

void json_object_begin(struct json *j) { json_open(j, '{'); }
void json_object_end(struct json *j) { json_close(j, '}'); }
void json_array_begin(struct json *j) { json_open(j, '['); }
void json_array_end(struct json *j) { json_close(j, ']'); }

/* Length of the valid UTF-8 sequence at S (at most LEN bytes), or 0. */
static size_t
utf8_sequence_length(const unsigned char *s, size_t len)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void
json_escape(FILE *fp, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '"': fputs("\\\"", fp); i++; continue;
		case '\\': fputs("\\\\", fp); i++; continue;
		case '\n': fputs("\\n", fp); i++; continue;
		case '\t': fputs("\\t", fp); i++; continue;
		case '\r': fputs("\\r", fp); i++; continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(fp, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_sequence_length(s + i, len - i);
		if (n == 0) {
			fprintf(fp, "\\\\x%02x", c);
			i++;
			continue;
		}
		fwrite(s + i, 1, n, fp);
		i += n;
	}
}

void
json_key(struct json *j, const char *key)
{
	json_value_prefix(j);
	fputc('"', j->fp);
	json_escape(j->fp, key, strlen(key));
	fputs("\":", j->fp);
	j->after_key = true;
}

void
json_string_n(struct json *j, const char *s, size_t len)
{
	json_value_prefix(j);
	fputc('"', j->fp);
	json_escape(j->fp, s, len);
	fputc('"', j->fp);
}

void
json_string(struct json *j, const char *s)
{
	if (s == NULL)
		json_null(j);
	else
		json_string_n(j, s, strlen(s));
}

void
json_int(struct json *j, long long v)
{
	json_value_prefix(j);
	fprintf(j->fp, "%lld", v);
}

void
json_bool(struct json *j, bool v)
{
	json_value_prefix(j);
	fputs(v ? "true" : "false", j->fp);
}

void
json_null(struct json *j)
{
	json_value_prefix(j);
	fputs("null", j->fp);
}

void
json_member_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void
json_member_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void
json_member_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
