/* A source tarball checked as extras-convert checks an upload's. */
#include "fuzz.h"
#include "debian/source-archive.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *path = fuzz_file("greet_1.0-1.debian.tar.xz", data, size);

	/* The low bit of the last byte: a debian tarball, or any other. */
	(void)source_archive_check(path, "greet_1.0-1.debian.tar.xz",
	                           size > 0 && (data[size - 1] & 1) ?
	                           "debian" : NULL, &err);
	dpkg_error_destroy(&err);
	return 0;
}
