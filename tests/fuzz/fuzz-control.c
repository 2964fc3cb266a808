/* debian/control renamed into the extras- name space. */
#include "fuzz.h"
#include "convert/control-rewrite.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct control_info info;
	struct convert_plan plan;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = fuzz_string(data, size), *out = NULL;

	convert_plan_init(&plan, "/nonexistent");
	if (control_rewrite_text("debian/control", text, size, &info, &out,
	                         &plan, &err) == 0) {
		struct control_info again_info;
		char *again = NULL;

		/* A second run changes nothing. */
		if (control_rewrite_text("debian/control", out, strlen(out),
		                         &again_info, &again, NULL, &err) < 0 ||
		    strcmp(again, out) != 0) {
			fprintf(stderr, "not idempotent: %s\n---\n%s\n---\n%s\n",
			        err.str ? err.str : "", out, again ? again : "");
			abort();
		}
		free(again);
		control_info_free(&again_info);
	}
	free(out);
	control_info_free(&info);
	convert_plan_free(&plan);
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
