/* debian/changelog's first entry, renamed. */
#include "fuzz.h"
#include "convert/changelog-rewrite.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct changelog_info info;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = fuzz_string(data, size), *out = NULL;

	if (changelog_rewrite_text("debian/changelog", text, size, "hello",
	                           &info, &out, &err) == 0 && out == NULL)
		abort();
	free(out);
	changelog_info_free(&info);
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
