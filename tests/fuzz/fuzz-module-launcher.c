/*
 * A program of the namespace given its module line as dh_extras_modules
 * does: its "#!" line read for the interpreter, the line inserted.
 */
#include "fuzz.h"
#include "relocate/module-launcher.h"

static const char *const perl_dirs[] = {
	"/opt/extras.ubuntu.com/foo/lib/x86_64-linux-gnu/perl5/5.36",
	"/opt/extras.ubuntu.com/foo/share/perl5",
};
static const char *const ruby_dirs[] = {
	"/opt/extras.ubuntu.com/foo/lib/ruby/vendor_ruby",
};
static const char *const node_dirs[] = {
	"/opt/extras.ubuntu.com/foo/share/nodejs",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct module_launcher ml = {
		{ perl_dirs, ruby_dirs, node_dirs }, { 2, 1, 1 },
	};
	size_t outlen;
	char *out;

	(void)module_launcher_language((const char *)data, size);
	out = module_launcher_patch((const char *)data, size, &outlen, &ml);
	if (out != NULL) {
		/* Patched once, never twice. */
		char *again = module_launcher_patch(out, outlen, &outlen, &ml);

		if (again != NULL)
			abort();
		free(out);
	}
	return 0;
}
