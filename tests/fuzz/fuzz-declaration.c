/* debian/extras.yaml, as extras-convert and the gate load it. */
#include "fuzz.h"
#include "namespace/declaration.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct declaration d;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t i;

	if (declaration_load_buffer(&d, "debian/extras.yaml",
	                            (const char *)data, size, &err) == 0) {
		(void)declaration_has_privilege(&d, "x11");
		for (i = 0; i < d.n_unpatched; i++)
			(void)declaration_check_unpatched_path(
				d.unpatched[i].value);
	}
	declaration_free(&d);
	dpkg_error_destroy(&err);
	return 0;
}
