/*
 * json.c: JSON reports, built as json-c objects (see json.h).
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "base/json.h"
#include "base/utf8.h"

/* Compact, and '/' as it is: reports are full of paths. */
#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* O, or death: json-c fails only when out of memory. */
static struct json_object *
checked(struct json_object *o)
{
	if (o == NULL)
		ohshit("out of memory");
	return o;
}

struct json_object *
json_text(const char *s)
{
	char *text;
	struct json_object *v;

	if (s == NULL)
		return NULL;
	text = utf8_clean(s, strlen(s));
	v = json_object_new_string(text);
	free(text);
	return checked(v);
}

struct json_object *
json_new_object(void)
{
	return checked(json_object_new_object());
}

struct json_object *
json_new_array(void)
{
	return checked(json_object_new_array());
}

struct json_object *
json_text_array(char *const *v, size_t n)
{
	struct json_object *a = checked(json_object_new_array_ext((int)n));
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_text(v[i]));
	return a;
}

void
json_add(struct json_object *obj, const char *key, struct json_object *v)
{
	if (json_object_object_add(obj, key, v) < 0)
		ohshit("out of memory");
}

void
json_add_text(struct json_object *obj, const char *key, const char *s)
{
	json_add(obj, key, json_text(s));
}

void
json_add_int(struct json_object *obj, const char *key, long long v)
{
	json_add(obj, key, checked(json_object_new_int64(v)));
}

void
json_add_bool(struct json_object *obj, const char *key, bool v)
{
	json_add(obj, key, checked(json_object_new_boolean(v)));
}

void
json_write(FILE *fp, struct json_object *o)
{
	fputs(json_object_to_json_string_ext(o, JSON_FLAGS), fp);
	fputc('\n', fp);
	json_object_put(o);
}

void
json_put_escaped(FILE *fp, const char *s)
{
	struct json_object *v = json_text(s);
	const char *text = json_object_to_json_string_ext(v, JSON_FLAGS);
	size_t len = strlen(text);

	/* Without the quotes json-c puts around it. */
	fwrite(text + 1, 1, len - 2, fp);
	json_object_put(v);
}
