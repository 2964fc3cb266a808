/* Facts about padding paths and relative paths. */
#include <string.h>

#include "../tests/tap.h"
#include "relocate/patch.h"

static const char *
pad(const char *old, const char *new)
{
	static char out[256];

	memset(out, 0, sizeof(out));
	patch_pad_path(old, strlen(old), new, out);
	return out;
}

static const char *
rel(const char *from, const char *to)
{
	static char out[256];

	patch_relative_path(from, to, out, sizeof(out));
	return out;
}

int
main(void)
{
	test_plan(12);

	test_str(pad("/usr/share/app/data", "/o/a/share/app/data"), ==,
	         "/o/a/share/app/data");
	/* The shared tail "/share/app/data" keeps its offset. */
	test_str(pad("/usr/local/share/app/data", "/o/a/share/app/data"), ==,
	         "/o/a///////share/app/data");
	test_int(strlen(pad("/usr/local/share/app/data", "/o/a/x")), ==,
	         strlen("/usr/local/share/app/data"));
	test_str(pad("/usr/lib/app", "/o/b/lib/app"), ==, "/o/b/lib/app");
	test_str(pad("/usr/lib/verylongname", "/o/b/x"), ==,
	         "/o/b////////////////x");

	test_str(rel("/opt/x/foo/bin", "/opt/x/foo/lib/foo"), ==, "../lib/foo");
	test_str(rel("/opt/x/foo/bin", "/opt/x/foo/bin/foo"), ==, "foo");
	test_str(rel("/a/b", "/a/b"), ==, ".");
	test_str(rel("/a/b/c", "/a"), ==, "../..");
	test_str(rel("/usr/share/pixmaps", "/usr/share/icons/a.png"), ==,
	         "../icons/a.png");
	test_str(rel("/", "/usr/x"), ==, "usr/x");
	test_str(rel("/a/bc", "/a/b/c"), ==, "../b/c");

	return test_done();
}
