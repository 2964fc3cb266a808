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
	test_plan(15);

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
	/*
	 * The component's own former ids (goobox provides
	 * org.gnome.Goobox.desktop, its id before the .desktop suffix was
	 * dropped) are renamed with it: kept, they claim the archive's app.
	 */
	test_int(metainfo_init(&mi, "extras-org.gnome.Goobox.appdata.xml"),
	         ==, 0);
	test_str(patched("<component>\n  <id>org.gnome.Goobox</id>\n"
	                 "  <provides>\n    <id>org.gnome.Goobox.desktop</id>\n"
	                 "  </provides>\n  <replaces><id>org.gnome.Goobox"
	                 "</id></replaces>\n  <provides><id>org.gnome.Other"
	                 "</id></provides>\n</component>\n"), ==,
	         "<component>\n  <id>extras-org.gnome.Goobox</id>\n"
	         "  <provides>\n    <id>extras-org.gnome.Goobox.desktop</id>\n"
	         "  </provides>\n  <replaces><id>extras-org.gnome.Goobox"
	         "</id></replaces>\n  <provides><id>org.gnome.Other"
	         "</id></provides>\n</component>\n");
	/* Patched again, it stays as it is. */
	test_str(patched("<component><id>extras-org.gnome.Goobox</id>"
	                 "<provides><id>extras-org.gnome.Goobox.desktop</id>"
	                 "</provides></component>"), ==, "(unchanged)");
	/* An old id without the suffix, when the component's has it. */
	test_str(patched("<component><id>goobox.desktop</id><provides><id>"
	                 "goobox</id></provides></component>"), ==,
	         "<component><id>extras-org.gnome.Goobox</id><provides><id>"
	         "extras-goobox</id></provides></component>");
	return test_done();
}
