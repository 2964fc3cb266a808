/* A binary package (.deb) read from a file, as extras-review reads it. */
#include "fuzz.h"
#include "debian/debfile.h"

static bool
keep_all(const struct debfile_member *m, void *ctx)
{
	(void)m;
	(void)ctx;
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct debfile deb;
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *path = fuzz_file("extras-foo_1.0_all.deb", data, size);
	size_t i;

	if (debfile_read_keep(&deb, path, keep_all, NULL, &err) == 0) {
		(void)debfile_control_member(&deb, "postinst");
		(void)debfile_field(&deb, "Depends");
		for (i = 0; i < deb.nmembers; i++)
			if (deb.members[i].path == NULL)
				abort();
		debfile_destroy(&deb);
	}
	dpkg_error_destroy(&err);
	return 0;
}
