/* Facts about the directories a program may build from immediates. */
#include <string.h>

#include "../tests/tap.h"
#include "relocate/code-paths.h"

int
main(void)
{
	struct code_paths cp = { NULL, 0 };
	size_t at = 0;

	test_plan(8);

	code_paths_add_dirs(&cp, "/usr/lib/plugdir/plugins/hello.plugin");
	test_int(cp.n, ==, 3);
	test_str(cp.v[0], ==, "/usr/lib");
	test_str(cp.v[1], ==, "/usr/lib/plugdir");
	test_str(cp.v[2], ==, "/usr/lib/plugdir/plugins");
	/* Each once; "/usr" and "/etc" are too short to fill an immediate. */
	code_paths_add_dirs(&cp, "/usr/lib/plugdir/other");
	code_paths_add_dirs(&cp, "/etc/x/y");
	code_paths_add_dirs(&cp, "/etc/plugdir/plugdir.conf");
	test_int(cp.n, ==, 4);
	test_str(cp.v[3], ==, "/etc/plugdir");
	code_paths_free(&cp);
	test_int(cp.n, ==, 0);

	/* Not ELF: no code, no .rodata. */
	test_ok(!code_paths_in_code((const unsigned char *)"/usr/lib/x", 10,
	                            "/usr/lib", &at));
	return test_done();
}
