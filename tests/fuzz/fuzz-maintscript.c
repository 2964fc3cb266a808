/*
 * A maintainer script judged by the converter or the gate (the first
 * byte's low bit), the profile required to be loaded.  shfmt parses each
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
	char err[1024];

	(void)argc;
	fuzz_init((*argv)[0]);
	if (integration_load(&db, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s (set DH_EXTRAS_DATADIR)\n", err);
		abort();
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maintscript_options o = { .db = &db,
	                                 .package = "extras-foo",
	                                 .must_load = true };
	struct maintscript_verdict v;
	int *sites = NULL, line;
	char err[1024], *text, *out;

	if (size == 0 || size > SCRIPT_MAX)
		return 0;
	o.mode = data[0] & 1 ? MAINTSCRIPT_GATE : MAINTSCRIPT_CONVERT;
	text = fuzz_string(data + 1, size - 1);
	o.nsites = maintscript_debhelper_lines(text, &sites);
	o.sites = sites;
	if (maintscript_judge(text, size - 1, &o, &v, &line, err,
	                      sizeof(err)) == 0 && v.nrefused == 0) {
		out = maintscript_apply(text, size - 1, &v);
		free(out);
	}
	maintscript_verdict_free(&v);
	free(sites);
	free(text);
	return 0;
}
