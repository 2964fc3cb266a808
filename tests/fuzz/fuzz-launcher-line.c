/*
 * A program of the namespace given the line of its language as
 * dh_extras_launchers does: its "#!" line read for the interpreter, the
 * text scanned for another interpreter's re-reading, the line inserted.
 */
#include "fuzz.h"
#include "relocate/launcher.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char datadir[] = "/opt/extras.ubuntu.com/foo/share";
	size_t outlen;
	char *out;

	(void)launcher_sets_data((const char *)data, size);
	out = launcher_line_patch((const char *)data, size, &outlen, datadir);
	if (out != NULL) {
		/* Given once, never twice, and then seen as set. */
		char *again = launcher_line_patch(out, outlen, &outlen, datadir);

		if (again != NULL || !launcher_sets_data(out, outlen))
			abort();
		free(out);
	}
	return 0;
}
