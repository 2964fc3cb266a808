/* debian/rules reaching the namespace: late paths, ./configure, classic helpers. */
#include "fuzz.h"
#include "convert/rules-rewrite.h"

static char *names[] = { "foo", "foo-data", "foo.bar", "libfoo+x1" };
static const struct control_info control = { "foo", names, 4 };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct convert_plan plan;
	char *text = fuzz_string(data, size), *out;

	convert_plan_init(&plan, "/nonexistent");
	{
		struct extras_namespace ns;

		if (namespace_init(&ns, "foo", NULL) == NULL) {
			struct dpkg_error err = DPKG_ERROR_INIT;

			out = rules_rewrite_late_paths("debian/rules", text,
			                               size, &control, &ns,
			                               &plan, &err);
			free(out);
			dpkg_error_destroy(&err);
		}
	}
	{
		struct dpkg_error err = DPKG_ERROR_INIT;

		out = rules_rewrite_configure("debian/rules", text, size,
		                              &plan, &err);
		free(out);
		dpkg_error_destroy(&err);
	}
	{
		struct dpkg_error err = DPKG_ERROR_INIT;

		out = rules_add_helpers("debian/rules", text, size,
		                        "/opt/extras.ubuntu.com/foo", &plan,
		                        &err);
		free(out);
		dpkg_error_destroy(&err);
	}
	convert_plan_free(&plan);
	free(text);
	return 0;
}
