/* Facts about the path relations and path_clean. */
#include <limits.h>
#include <string.h>

#include "../tests/tap.h"
#include "base/path.h"

static void
clean_is(const char *path, const char *want)
{
	char buf[PATH_MAX];

	strcpy(buf, path);
	path_clean(buf);
	test_str(buf, ==, want);
}

int
main(void)
{
	test_plan(11);

	clean_is("/opt/x/bin/../share/x/run", "/opt/x/share/x/run");
	clean_is("/opt/x/bin/./run", "/opt/x/bin/run");
	clean_is("//opt///x/", "/opt/x");
	/* ".." at the root stays at the root, as the kernel resolves it. */
	clean_is("/../../etc/passwd", "/etc/passwd");
	clean_is("/a/b/../../..", "/");
	clean_is("/", "/");
	test_ok(path_is_under("usr/share/doc", "usr/share"));
	test_ok(!path_is_under("usr/shared", "usr/share"));
	test_ok(!path_is_under("usr/share", "usr/share"));
	test_ok(path_is_or_under("usr/share", "usr/share"));
	test_ok(!path_is_or_under("usr", "usr/share"));
	return 0;
}
