/* A Contents index, plain or compressed, read from a file by two workers. */
#include "fuzz.h"
#include "conflicts/contents.h"

struct seen {
	uint64_t entries;
};

static void
entry(void *ctx, const char *path, size_t pathlen, uint64_t hash,
      const char *packages, size_t pkglen)
{
	struct seen *s = ctx;
	size_t i, namelen;

	if (hash != contents_hash(path, pathlen))
		abort();
	/* A line with a NUL is a bad one, never an entry. */
	if (memchr(path, '\0', pathlen) != NULL)
		abort();
	/* Every item of the package list names a package. */
	for (i = 0; packages != NULL && i < pkglen;) {
		const char *item = packages + i;
		const char *comma = memchr(item, ',', pkglen - i);
		size_t len = comma ? (size_t)(comma - item) : pkglen - i;

		(void)contents_item_package(item, len, &namelen);
		if (namelen > len)
			abort();
		i += len + 1;
	}
	s->entries++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen seen[2] = { { 0 }, { 0 } };
	void *const ctx[2] = { &seen[0], &seen[1] };
	const char *files[1];
	struct contents_stats stats;
	struct dpkg_error err = DPKG_ERROR_INIT;

	memset(&stats, 0, sizeof(stats));
	files[0] = fuzz_file("Contents-amd64", data, size);
	(void)contents_read(files, 1, 2, entry, ctx, &stats, &err);
	dpkg_error_destroy(&err);
	return 0;
}
