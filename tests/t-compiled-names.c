/* Facts about the names found in a program's read-only data. */
#include <string.h>

#include "../tests/tap.h"
#include "review/compiled-names.h"

struct hits {
	char text[512];
};

static void
record(void *ctx, const char *name, size_t offset)
{
	struct hits *h = ctx;
	size_t n = strlen(h->text);

	snprintf(h->text + n, sizeof(h->text) - n, "%s@%zu ", name, offset);
}

static const char *
scan(const struct compiled_names *cn, const void *data, size_t len)
{
	static struct hits h;

	h.text[0] = '\0';
	compiled_names_scan(cn, data, len, record, &h);
	return h.text;
}

int
main(void)
{
	char *names[] = { "org.example.App", "App", "example.App", "tool" };
	struct compiled_names cn;
	static const char whole[] = "x\0org.example.App\0y";
	static const char tail[] = "/usr/share/pixmaps/org.example.App";
	static const char inner[] = "MyApp\0org.example.Apps\0App.png";
	/* QStringLiteral("tool"), aligned, then at an odd offset. */
	static const char utf16[] = "\0\0t\0o\0o\0l\0\0\0";
	static const char utf16_odd[] = "\0\0\0t\0o\0o\0l\0\0\0";
	static const char wide_prefix[] = "\0\0x\0t\0o\0o\0l\0\0\0";

	test_plan(9);

	compiled_names_init(&cn, names, 4);
	/* A whole string, and the names it ends with after a dot. */
	test_str(scan(&cn, whole, sizeof(whole)), ==,
	         "App@14 example.App@6 org.example.App@2 ");
	/* A tail the linker merged: after a '/', not inside a word. */
	test_str(scan(&cn, tail, sizeof(tail)), ==,
	         "App@31 example.App@23 org.example.App@19 ");
	test_str(scan(&cn, inner, sizeof(inner)), ==, "");
	/* No NUL at the end: not a string. */
	test_str(scan(&cn, "org.example.App", 15), ==, "");
	test_str(scan(&cn, utf16, sizeof(utf16) - 1), ==, "tool@2 ");
	test_str(scan(&cn, utf16_odd, sizeof(utf16_odd) - 1), ==, "tool@3 ");
	test_str(scan(&cn, wide_prefix, sizeof(wide_prefix) - 1), ==, "");
	compiled_names_free(&cn);
	test_int(cn.n, ==, 0);

	/* No names: nothing found, nothing read. */
	compiled_names_init(&cn, names, 0);
	test_str(scan(&cn, whole, sizeof(whole)), ==, "");
	compiled_names_free(&cn);
	return test_done();
}
