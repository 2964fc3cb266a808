/* Facts about launching a namespace's programs with its schemas. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/gsettings-exec.h"

static struct gsettings_exec g = {
	"/opt/extras.ubuntu.com/bells",
	"/opt/extras.ubuntu.com/bells/share/glib-2.0/schemas", NULL, NULL,
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

/* The programs that set XDG_DATA_DIRS themselves: bin/launched. */
static bool
sees_data(const char *path, void *ctx)
{
	(void)ctx;
	return strcmp(path, "/opt/extras.ubuntu.com/bells/bin/launched") == 0 ||
	       strcmp(path, "/opt/extras.ubuntu.com/bells/bin/a b") == 0;
}

#define ENV "/usr/bin/env GSETTINGS_SCHEMA_DIR=/opt/extras.ubuntu.com/bells/share/glib-2.0/schemas "

int
main(void)
{
	test_plan(11);

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
	/* A launcher that sees its data needs no variable, quoted or not. */
	g.sees_data = sees_data;
	test_str(patched("Exec=/opt/extras.ubuntu.com/bells/bin/launched %U\n"),
	         ==, "(unchanged)");
	test_str(patched("Exec=\"/opt/extras.ubuntu.com/bells/bin/a b\" %U\n"),
	         ==, "(unchanged)");
	test_str(patched("Exec=/opt/extras.ubuntu.com/bells/bin/bells\n"
	                 "Exec=/opt/extras.ubuntu.com/bells/bin/launched\n"),
	         ==, "Exec=" ENV "/opt/extras.ubuntu.com/bells/bin/bells\n"
	         "Exec=/opt/extras.ubuntu.com/bells/bin/launched\n");
	test_str(patched("Exec=/opt/extras.ubuntu.com/bells/bin/launched-not\n"),
	         ==, "Exec=" ENV "/opt/extras.ubuntu.com/bells/bin/launched-not\n");
	return test_done();
}
