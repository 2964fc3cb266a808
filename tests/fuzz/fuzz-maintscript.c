/*
 * A maintainer script judged by the converter or the gate (the first
 * byte's low bit), the profile required to be loaded, of a package that
 * was "foo" and "foo-data" in Debian; what the converter keeps is judged
 * again and must pass.  shfmt parses each
 * input in a subprocess: keep inputs small (-max_len).
 */
#define FUZZ_OWN_INIT
#include "fuzz.h"
#include "scripts/maintscript.h"

#define SCRIPT_MAX 4096

static struct integration db;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	(void)argc;
	fuzz_init((*argv)[0]);
	if (integration_load(&db, NULL, &err) < 0) {
		fprintf(stderr, "%s (set DH_EXTRAS_DATADIR)\n", err.str);
		abort();
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const old_names[] = { "foo", "foo-data" };
	struct maintscript_options o = { .db = &db,
	                                 .package = "extras-foo",
	                                 .old_names = old_names,
	                                 .nold_names = 2,
	                                 .must_load = true };
	struct maintscript_verdict v;
	int *sites = NULL, line;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text, *out;

	if (size == 0 || size > SCRIPT_MAX)
		return 0;
	o.mode = data[0] & 1 ? MAINTSCRIPT_GATE : MAINTSCRIPT_CONVERT;
	text = fuzz_string(data + 1, size - 1);
	o.nsites = maintscript_debhelper_lines(text, &sites);
	o.sites = sites;
	if (maintscript_judge(text, size - 1, &o, &v, &line, &err) == 0 &&
	    v.nrefused == 0) {
		struct maintscript_verdict again;

		out = maintscript_apply(text, size - 1, &v);
		/* What the converter keeps, judged again, has nothing left
		 * to drop or refuse: else extras-convert fails with an
		 * internal error. */
		if (o.mode == MAINTSCRIPT_CONVERT && v.nedits > 0 &&
		    maintscript_judge(out, strlen(out), &o, &again, &line,
		                      &err) == 0) {
			if (again.nrefused > 0 || again.ndropped > 0) {
				fprintf(stderr, "kept script judged again: %s\n",
				        again.nrefused ? again.refused[0].text :
				        again.dropped[0].text);
				abort();
			}
			maintscript_verdict_free(&again);
		}
		free(out);
	}
	maintscript_verdict_free(&v);
	free(sites);
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
