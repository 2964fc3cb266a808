/* An ELF file's strings and RUNPATH/RPATH patched for the namespace, and
 * its dynamic symbols read as the gate reads them. */
#define FUZZ_OWN_INIT
#include "fuzz.h"
#include "patch-maps.h"
#include "relocate/elf-read.h"

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

	report_init(&report);
	if (patch_elf(&patch_ctx, patch_scanner,
	              "/opt/extras.ubuntu.com/foo/bin/foo", data, size, &res,
	              &report) == 0) {
		/* Patched over, or grown by a segment at the end; every
		 * edit where it may be written. */
		if (res.data != NULL || patch_result_apply(&res, data, size) < 0 ||
		    (res.data != NULL && res.len < size))
			abort();
		patch_result_free(&res);
	}
	report_free(&report);
	/* What the gate asks of a program's dynamic symbols. */
	(void)elf_imports(data, size, "textdomain");
	return 0;
}
