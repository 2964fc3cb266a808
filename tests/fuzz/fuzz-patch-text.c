/*
 * A file's content patched as dh_extras_relocate does: text (a .desktop
 * file, a GtkBuilder file, a Python module or a program of the namespace,
 * as the input's last byte says), or reported as a blob; and the one-pass
 * search that decides whether a file is read whole agrees with the
 * searches it stands for.
 */
#define FUZZ_OWN_INIT
#include "fuzz.h"
#include "patch-maps.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	fuzz_init((*argv)[0]);
	patch_maps_init();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch_result res;
	struct report report;
	struct pathmap_match m;
	const char *file;
	int packed;

	static const char *const files[] = {
		"/usr/share/applications/extras-foo.desktop",
		"/opt/extras.ubuntu.com/foo/bin/foo-helper",
		"/opt/extras.ubuntu.com/foo/share/foo/window.ui",
		"/opt/extras.ubuntu.com/foo/share/foo/main.py",
		"/opt/extras.ubuntu.com/foo/bin/foo",
	};

	/* The last byte picks the kind of file: each has its own passes. */
	file = files[size > 0 ? data[size - 1] % 5 : 0];
	report_init(&report);
	if (patch_content(&patch_ctx, patch_scanner, file, data, size, &res,
	                  &report) == 0)
		patch_result_free(&res);
	report_free(&report);
	for (packed = 0; packed < 2; packed++)
		if (pathmap_holds_any(patch_scanner, data, size, packed) !=
		    ((packed ? pathmap_next_packed(patch_scanner, data, size,
		                                   0, &m) :
		               pathmap_next(patch_scanner, data, size, 0, &m)) ||
		     pathmap_next_utf16(patch_scanner, data, size, 0, &m)))
			abort();
	return 0;
}
