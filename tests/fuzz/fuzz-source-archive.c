/* A source tarball checked as extras-convert checks an upload's; a debian
 * tarball also read as it unpacks one, its members below debian/'s own
 * directories held. */
#include <sys/stat.h>

#include "fuzz.h"
#include "convert/convert-dsc.h"
#include "debian/source-archive.h"

/* Into a fresh directory "tree" beside PATH. */
static void
extract_held(const char *path, struct dpkg_error *err)
{
	struct source_held *held = NULL;
	char tree[160], cmd[200];

	snprintf(tree, sizeof(tree), "%s/tree", fuzz_dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	if (system(cmd) != 0 || mkdir(tree, 0755) < 0)
		abort();
	if (source_archive_extract_held(path, "greet_1.0-1.debian.tar.xz",
	                                "debian", tree,
	                                convert_debian_unpacked, &held,
	                                err) == 0)
		source_held_free(held);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *path = fuzz_file("greet_1.0-1.debian.tar.xz", data, size);
	bool debian = size > 0 && (data[size - 1] & 1);

	/* The low bit of the last byte: a debian tarball, or any other. */
	(void)source_archive_check(path, "greet_1.0-1.debian.tar.xz",
	                           debian ? "debian" : NULL, &err);
	dpkg_error_destroy(&err);
	if (debian) {
		extract_held(path, &err);
		dpkg_error_destroy(&err);
	}
	return 0;
}
