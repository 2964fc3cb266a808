/* Facts about snippets kept as templates and taken over from others. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "apparmor/snippet-template.h"

/* S without TOOL's blocks, or "(unchanged)". */
static const char *
dropped(const char *s, const char *tool)
{
	static char keep[4096];
	size_t len;
	char *out = snippet_drop_tool(s, strlen(s), &len, (void *)tool);

	if (out == NULL)
		return "(unchanged)";
	snprintf(keep, sizeof(keep), "%.*s", (int)len, out);
	free(out);
	return keep;
}

#define PY "# Automatically added by dh_python3\npy3compile -p foo \n" \
	"# End automatically added section\n"
#define OURS "# Automatically added by dh_extras_python/1.0\nx\n" \
	"# End automatically added section\n"

int
main(void)
{
	test_plan(5);

	test_str(dropped(PY OURS, "dh_python3"), ==, OURS);
	test_str(dropped(OURS PY, "dh_python3"), ==, OURS);
	test_str(dropped(OURS, "dh_python3"), ==, "(unchanged)");
	test_str(dropped(OURS, "dh_extras_python"), ==, "");
	/* A longer tool name is another tool. */
	test_str(dropped("# Automatically added by dh_python3x\n"
	                 "# End automatically added section\n", "dh_python3"),
	         ==, "(unchanged)");
	return test_done();
}
