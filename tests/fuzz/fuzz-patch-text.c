/*
 * A file's content patched as dh_extras_relocate does: text (a .desktop
 * file when the input's last byte is odd), or reported as a blob.
 */
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
	const char *file;

	file = size > 0 && (data[size - 1] & 1) ?
		"/usr/share/applications/extras-foo.desktop" :
		"/opt/extras.ubuntu.com/foo/bin/foo-helper";
	report_init(&report);
	if (patch_content(&patch_ctx, patch_scanner, file, data, size, &res,
	                  &report) == 0) {
		free(res.data);
		free(res.rpath);
	}
	report_free(&report);
	return 0;
}
