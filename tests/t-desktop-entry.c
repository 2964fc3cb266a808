/* Facts about reading key files and splitting Exec= as the desktop does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "review/desktop-entry.h"

/* The words of VALUE joined by '|', each marked '!' when not plain;
 * "ERROR: why" when refused. */
static const char *
split(enum exec_syntax syntax, const char *value)
{
	static char out[1024];
	struct exec_words w;
	const char *why;
	size_t i, n = 0;

	if (exec_split(syntax, value, strlen(value), &w, &why) < 0) {
		snprintf(out, sizeof(out), "ERROR: %s", why);
		exec_words_free(&w);
		return out;
	}
	out[0] = '\0';
	for (i = 0; i < w.n; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s%s",
		                      i ? "|" : "", w.words[i].text,
		                      w.words[i].unplain ? "!" : "");
	exec_words_free(&w);
	return out;
}

static const char *
why_unplain(enum exec_syntax syntax, const char *value, size_t word)
{
	static char out[256];
	struct exec_words w;
	const char *why;

	out[0] = '\0';
	if (exec_split(syntax, value, strlen(value), &w, &why) == 0 &&
	    word < w.n && w.words[word].unplain != NULL)
		snprintf(out, sizeof(out), "%s", w.words[word].unplain);
	exec_words_free(&w);
	return out;
}

static void
test_desktop_exec(void)
{
	test_str(split(EXEC_DESKTOP, "/opt/x/bin/demo %U"), ==,
	         "/opt/x/bin/demo|%U!");
	test_str(split(EXEC_DESKTOP, "\"/opt/x/bin/a b\" --new"), ==,
	         "/opt/x/bin/a b|--new");
	test_str(split(EXEC_DESKTOP, "\"a\\\\\\\\b\\\\\"c\""), ==, "a\\b\"c");
	test_str(split(EXEC_DESKTOP, "/opt/x/bin/demo\\s--flag"), ==,
	         "/opt/x/bin/demo|--flag");
	test_str(split(EXEC_DESKTOP, "env A=1   B=2 /p"), ==, "env|A=1|B=2|/p");
	test_str(split(EXEC_DESKTOP, "sh -c \"rm -rf ~\""), ==,
	         "sh|-c|rm -rf ~");
	test_str(split(EXEC_DESKTOP, "'/bin/sh' x"), ==, "'/bin/sh'!|x");
	test_str(split(EXEC_DESKTOP, "a\"b\"c"), ==, "abc!");
	test_str(split(EXEC_DESKTOP, "100%% x"), ==, "100%|x");
	test_str(split(EXEC_DESKTOP, "%f"), ==, "%f!");
	test_str(split(EXEC_DESKTOP, "env\tsh"), ==, "env|sh!");
	test_str(split(EXEC_DESKTOP, "\"/a"), ==,
	         "ERROR: an unterminated quote");
	test_str(split(EXEC_DESKTOP, "/a\\x"), ==,
	         "ERROR: an invalid escape sequence (\\s, \\n, \\t, \\r and "
	         "\\\\ only)");
	test_str(split(EXEC_DESKTOP, "/a\\"), ==,
	         "ERROR: an invalid escape sequence (\\s, \\n, \\t, \\r and "
	         "\\\\ only)");
	test_str(split(EXEC_DESKTOP, ""), ==, "");
	test_str(why_unplain(EXEC_DESKTOP, "a|b", 0), ==,
	         "holds a reserved character outside quotes");
	test_str(why_unplain(EXEC_DESKTOP, "%i", 0), ==, "holds a field code");
	test_str(why_unplain(EXEC_DESKTOP, "%z", 0), ==,
	         "holds an unknown field code");
	test_str(why_unplain(EXEC_DESKTOP, "\"%f\"", 0), ==,
	         "holds a field code inside quotes");
	test_str(why_unplain(EXEC_DESKTOP, "a\"b\"", 0), ==, "is partly quoted");
}

static void
test_dbus_exec(void)
{
	test_str(split(EXEC_DBUS, "/opt/x/bin/demo --gapplication-service"), ==,
	         "/opt/x/bin/demo|--gapplication-service");
	test_str(split(EXEC_DBUS, "'/opt/x/bin/a b' c"), ==, "/opt/x/bin/a b|c");
	test_str(split(EXEC_DBUS, "/bin/sh\\ -c x"), ==, "/bin/sh -c!|x");
	test_str(split(EXEC_DBUS, "/p # comment"), ==, "/p");
	test_str(split(EXEC_DBUS, "#/p"), ==, "");
	test_str(split(EXEC_DBUS, "/p '"), ==, "ERROR: an unterminated quote");
	test_str(split(EXEC_DBUS, "/p \\"), ==, "ERROR: a backslash at the end");
	test_str(split(EXEC_DBUS, "%f"), ==, "%f");
}

static void
test_reader(void)
{
	const char *text =
		"# comment\n"
		"  [Desktop Entry]\r\n"
		"Name = Demo \n"
		"\t Exec=sh -c evil\n"
		"Icon[fr]=demo\n"
		"garbage\n"
		"[Desktop Action x]\n"
		"Exec=/p";
	struct desktop_reader rd;
	struct desktop_line l;

	desktop_reader_init(&rd, text, strlen(text));
	test_ok(desktop_reader_next(&rd, &l) && l.kind == DESKTOP_LINE_BLANK);
	test_ok(desktop_reader_next(&rd, &l) && l.kind == DESKTOP_LINE_GROUP);
	test_ok(desktop_line_in_group(&l, "Desktop Entry"));
	test_ok(desktop_reader_next(&rd, &l) && desktop_line_is_key(&l, "Name"));
	test_ok(l.value_len == 4 && memcmp(l.value, "Demo", 4) == 0);
	/* GKeyFile skips leading blanks: this is the Exec key. */
	test_ok(desktop_reader_next(&rd, &l) && desktop_line_is_key(&l, "Exec"));
	test_int(l.lineno, ==, 4);
	test_ok(l.value_len == 10 && memcmp(l.value, "sh -c evil", 10) == 0);
	test_ok(desktop_reader_next(&rd, &l) && desktop_line_is_key(&l, "Icon"));
	test_ok(l.locale_len == 2 && memcmp(l.locale, "fr", 2) == 0);
	test_ok(desktop_reader_next(&rd, &l) &&
	        l.kind == DESKTOP_LINE_INVALID);
	test_ok(desktop_reader_next(&rd, &l) &&
	        desktop_line_in_group(&l, "Desktop Action x"));
	test_ok(desktop_reader_next(&rd, &l) && desktop_line_is_key(&l, "Exec") &&
	        desktop_line_in_group(&l, "Desktop Action x"));
	test_ok(!desktop_reader_next(&rd, &l));
}

static char items[256];

static void
collect(const char *item, void *ctx)
{
	(void)ctx;
	strcat(items, "<");
	strcat(items, item);
	strcat(items, ">");
}

static void
test_string_list(void)
{
	items[0] = '\0';
	desktop_string_list("text/plain;x-scheme-handler/https;;a\\;b;c\\sd",
	                    45, collect, NULL);
	test_str(items, ==, "<text/plain><x-scheme-handler/https><a;b><c d>");
}

int
main(void)
{
	test_plan(19 + 8 + 15 + 1);
	test_desktop_exec();
	test_dbus_exec();
	test_reader();
	test_string_list();
	return test_done();
}
