/* A relation field parsed, then its own binaries renamed and others pruned. */
#include "fuzz.h"
#include "debian/relation.h"

static const char *const names[] = { "hello", "hello-data", "libhello1",
                                     "hello.x+y" };
static const struct relation_owner own = { names, 4 };

static void
dropped(void *obj, const char *relation, int line)
{
	(void)obj;
	(void)relation;
	(void)line;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct relation_list l;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = fuzz_string(data, size), *out;
	bool drop;

	/* The first byte chooses whether other packages are dropped. */
	drop = size > 0 && (data[0] & 1);
	if (relation_parse(&l, text, size, "debian/control", 3,
	                   "Build-Depends", &err) == 0) {
		out = relation_rewrite(text, size, &l, &own, drop, dropped,
		                       NULL);
		free(out);
		relation_list_free(&l);
	}
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
