/* An upload's .changes, clear-signed or not, read from a file. */
#include "fuzz.h"
#include "debian/changes.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct changes ch;
	struct dpkg_error err = DPKG_ERROR_INIT;

	if (changes_read(&ch, fuzz_file("upload.changes", data, size),
	                 &err) == 0) {
		(void)changes_field(&ch, "Distribution");
		changes_destroy(&ch);
	}
	dpkg_error_destroy(&err);
	return 0;
}
