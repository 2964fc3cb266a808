/*
 * json.c: write JSON reports.
 */
#include <string.h>

#include "base/json.h"
#include "base/utf8.h"

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
