/* Facts about the JSON reports: valid JSON whatever the bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "base/json.h"

/* What json_write() makes of O. */
static const char *
written(struct json_object *o)
{
	static char buf[1024];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	json_write(fp, o);
	fclose(fp);
	return buf;
}

static const char *
escaped(const char *s)
{
	static char buf[1024];
	FILE *fp;

	memset(buf, 0, sizeof(buf));
	fp = fmemopen(buf, sizeof(buf), "w");
	json_put_escaped(fp, s);
	fclose(fp);
	return buf;
}

int
main(void)
{
	struct json_object *o;
	char *names[] = { "a", "caf\xe9" };

	test_plan(7);

	o = json_new_object();
	json_add_text(o, "path", "/usr/share/caf\xc3\xa9");
	json_add_text(o, "none", NULL);
	json_add_int(o, "n", -3);
	json_add_bool(o, "ok", true);
	test_str(written(o), ==,
	         "{\"path\":\"/usr/share/caf\xc3\xa9\",\"none\":null,"
	         "\"n\":-3,\"ok\":true}\n");
	/* A byte that is no UTF-8 is kept as the text \xNN. */
	o = json_new_object();
	json_add_text(o, "s", "caf\xe9");
	test_str(written(o), ==, "{\"s\":\"caf\\\\xe9\"}\n");
	test_str(written(json_text_array(names, 2)), ==,
	         "[\"a\",\"caf\\\\xe9\"]\n");
	test_str(written(json_text("tab\there \"q\"\n")), ==,
	         "\"tab\\there \\\"q\\\"\\n\"\n");
	/* In a message: the string's body, as the report has it. */
	test_str(escaped("/usr/lib/caf\xe9"), ==, "/usr/lib/caf\\\\xe9");
	test_str(escaped("a\"b\\c\nd"), ==, "a\\\"b\\\\c\\nd");
	test_str(escaped(""), ==, "");
	return 0;
}
