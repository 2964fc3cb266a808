/* The identity file extras-conflicts accept writes and every later step reads. */
#include "fuzz.h"
#include "namespace/identity.h"

static void
count(void *ctx, const char *app)
{
	(void)app;
	(*(size_t *)ctx)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct identity id;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = fuzz_string(data, size);
	size_t i, n = 0;

	if (identity_parse(&id, "identity", text, size, &err) == 0) {
		/* What parses is what identity_write() writes back. */
		for (i = 0; i < id.npackages; i++) {
			if (!identity_has_package(&id, id.packages[i]) ||
			    identity_check_package(id.packages[i]) != NULL)
				abort();
			identity_space_owners(id.packages[i], count, &n);
		}
		if (!identity_in_space(id.app, id.app))
			abort();
	}
	identity_free(&id);
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
