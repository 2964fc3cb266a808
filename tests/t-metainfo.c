/* Facts about naming an exported metainfo file's component. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/metainfo.h"

static struct metainfo mi;

/* The patched S, or "(unchanged)". */
static const char *
patched(const char *s)
{
	static char keep[4096];
	size_t len;
	char *out = metainfo_patch(s, strlen(s), &len, &mi);

	if (out == NULL)
		return "(unchanged)";
	snprintf(keep, sizeof(keep), "%.*s", (int)len, out);
	free(out);
	return keep;
}

int
main(void)
{
	test_plan(11);

	test_int(metainfo_init(&mi, "extras-org.example.App.appdata.xml"),
	         ==, 0);
	test_str(mi.id, ==, "extras-org.example.App");
	test_int(metainfo_init(&mi, "extras-foo.xml"), ==, 0);
	test_str(mi.id, ==, "extras-foo");
	test_int(metainfo_init(&mi, "README"), ==, -1);
	test_int(metainfo_init(&mi, "extras-org.example.App.metainfo.xml"),
	         ==, 0);

	test_str(patched("<component>\n  <id>org.example.App</id>\n"
	                 "  <launchable type=\"desktop-id\">org.example.App"
	                 ".desktop</launchable>\n</component>\n"), ==,
	         "<component>\n  <id>extras-org.example.App</id>\n"
	         "  <launchable type=\"desktop-id\">extras-org.example.App"
	         ".desktop</launchable>\n</component>\n");
	test_int(mi.n_changes, ==, 2);
	/* Only the component's own id; other ids name other components. */
	test_str(patched("<component><id>a</id><requires><id>b</id>"
	                 "</requires></component>"), ==,
	         "<component><id>extras-org.example.App</id><requires>"
	         "<id>b</id></requires></component>");
	test_str(patched("<component><id>extras-org.example.App</id>"
	                 "<launchable type=\"desktop-id\">extras-a.desktop"
	                 "</launchable><idea/></component>"), ==,
	         "(unchanged)");
	test_str(patched("<component><launchable type=\"url\">https://x"
	                 "</launchable></component>"), ==,
	         "(unchanged)");
	return test_done();
}
