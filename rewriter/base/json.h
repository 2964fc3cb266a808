/*
 * json.h: JSON reports, built as json-c objects.
 *
 * Only writing: dh-extras never parses its own reports.  JSON must be
 * UTF-8, and file names and strings found in files may hold any byte, so
 * every string goes through utf8_clean(): a byte that is not part of
 * valid UTF-8 becomes the four characters \xNN, so the byte 0xe9 reads
 * "\\xe9" in the JSON text and \xe9 once decoded: valid JSON that keeps
 * the byte.
 */
#ifndef DH_EXTRAS_JSON_H
#define DH_EXTRAS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * New values.  json-c fails only when out of memory, and then these die
 * as libdpkg's m_malloc() does.
 */
struct json_object *json_new_object(void);
struct json_object *json_new_array(void);
/* A JSON string of S, whatever its bytes; null when S is NULL. */
struct json_object *json_text(const char *s);
/* An array of the N strings V. */
struct json_object *json_text_array(char *const *v, size_t n);

/* Members of OBJ: the string S (NULL: null), a number, a boolean. */
void json_add_text(struct json_object *obj, const char *key, const char *s);
void json_add_int(struct json_object *obj, const char *key, long long v);
void json_add_bool(struct json_object *obj, const char *key, bool v);
/* The member KEY of OBJ, V, which OBJ now owns. */
void json_add(struct json_object *obj, const char *key,
              struct json_object *v);

/* O written to FP on one line, then released. */
void json_write(FILE *fp, struct json_object *o);

/* S as the body of a JSON string (no quotes), for a message. */
void json_put_escaped(FILE *fp, const char *s);

#endif
