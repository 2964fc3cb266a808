/*
 * json.h: write JSON reports.
 *
 * Only writing: dh-extras never parses JSON.  The writer tracks nesting so
 * callers never emit commas by hand.  Strings are written as UTF-8; a byte
 * that is not part of valid UTF-8 (file names may hold any byte) is written
 * as an escaped backslash followed by xNN, so the byte 0xe9 reads "\\xe9"
 * in the JSON text and \xe9 once decoded: valid JSON that keeps the byte.
 */
#ifndef DH_EXTRAS_JSON_H
#define DH_EXTRAS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *fp;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *fp);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_string_n(struct json *j, const char *s, size_t len);
void json_int(struct json *j, long long v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* Shorthands for "key": value members. */
void json_member_string(struct json *j, const char *key, const char *s);
void json_member_int(struct json *j, const char *key, long long v);
void json_member_bool(struct json *j, const char *key, bool v);

/* Write S as a JSON string body (no quotes) to FP; used by json_string. */
void json_escape(FILE *fp, const char *s, size_t len);

#endif
