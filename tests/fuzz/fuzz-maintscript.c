/*
 * An author's maintainer script read for the converter's report, of a
 * package that was "foo" and "foo-data" in Debian: every note names a line
 * of the script, every link is "SOURCE DESTINATION".  The first byte is
 * skipped (it once chose between two readers; the seeds keep it).  shfmt
 * parses each input in a subprocess: keep inputs small (-max_len).
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

static void
check_notes(const struct maintscript_note *list, size_t n, int lines)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].line < 1 || list[i].line > lines ||
		    list[i].text == NULL) {
			fprintf(stderr, "note on line %d of %d: %s\n",
			        list[i].line, lines, list[i].text);
			abort();
		}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const old_names[] = { "foo", "foo-data" };
	struct maintscript_options o = { .db = &db,
	                                 .package = "extras-foo",
	                                 .old_names = old_names,
	                                 .nold_names = 2 };
	struct maintscript_verdict v;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int line, lines = 1;
	char *text;
	size_t i;

	if (size == 0 || size > SCRIPT_MAX)
		return 0;
	text = fuzz_string(data + 1, size - 1);
	for (i = 0; text[i]; i++)
		lines += text[i] == '\n';
	if (maintscript_read(text, size - 1, &o, &v, &line, &err) == 0) {
		check_notes(v.unknown, v.nunknown, lines);
		check_notes(v.dropped, v.ndropped, lines);
		for (i = 0; i < v.nlinks; i++)
			if (strchr(v.links[i], ' ') == NULL)
				abort();
	}
	maintscript_verdict_free(&v);
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
