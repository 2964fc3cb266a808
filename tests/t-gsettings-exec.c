/* Facts about launching a namespace's programs with its schemas. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/gsettings-exec.h"

static struct gsettings_exec g = {
	"/opt/extras.ubuntu.com/bells",
	"/opt/extras.ubuntu.com/bells/share/glib-2.0/schemas",
};

/* The patched S, or "(unchanged)". */
static const char *
patched(const char *s)
{
	static char keep[4096];
	size_t len;
	char *out = gsettings_exec_patch(s, strlen(s), &len, &g);

	if (out == NULL)
		return "(unchanged)";
	snprintf(keep, sizeof(keep), "%.*s", (int)len, out);
	free(out);
	return keep;
}

#define ENV "/usr/bin/env GSETTINGS_SCHEMA_DIR=/opt/extras.ubuntu.com/bells/share/glib-2.0/schemas "

int
main(void)
{
	test_plan(7);

	test_str(patched("Exec=/opt/extras.ubuntu.com/bells/bin/bells %U\n"),
	         ==, "Exec=" ENV "/opt/extras.ubuntu.com/bells/bin/bells %U\n");
	test_str(patched("[D-BUS Service]\nName=org.example.Bells\n"
	                 "Exec=/opt/extras.ubuntu.com/bells/bin/bells -s"),
	         ==, "[D-BUS Service]\nName=org.example.Bells\n"
	         "Exec=" ENV "/opt/extras.ubuntu.com/bells/bin/bells -s");
	test_str(patched("Exec=\"/opt/extras.ubuntu.com/bells/bin/a b\"\n"),
	         ==, "Exec=" ENV "\"/opt/extras.ubuntu.com/bells/bin/a b\"\n");
	test_str(patched("TryExec=/opt/extras.ubuntu.com/bells/bin/bells\n"),
	         ==, "(unchanged)");
	test_str(patched("Exec=/usr/bin/other\n"), ==, "(unchanged)");
	test_str(patched("Exec=/opt/extras.ubuntu.com/bellsx/bin/b\n"),
	         ==, "(unchanged)");
	/* Run twice, the prefix is not added twice. */
	test_str(patched("Exec=" ENV "/opt/extras.ubuntu.com/bells/bin/b\n"),
	         ==, "(unchanged)");
	return test_done();
}
