/* A .dsc, clear-signed or not, read from a file as extras-convert does. */
#include "fuzz.h"
#include "debian/dsc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dsc d;
	struct dpkg_error err = DPKG_ERROR_INIT;

	/* The files a .dsc lists are looked up beside it: none are there. */
	if (dsc_load(&d, fuzz_file("upload.dsc", data, size), &err) == 0)
		(void)dsc_find_suffix(&d, ".debian.tar.xz");
	dsc_free(&d);
	dpkg_error_destroy(&err);
	return 0;
}
