/* Facts about debian/changelog rewriting: the first line and the date. */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "convert/changelog-rewrite.h"

static char result[4096];
static struct changelog_info ci;

static const char *
rw(const char *text)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out;

	changelog_info_free(&ci);
	if (changelog_rewrite_text("debian/changelog", text, strlen(text),
	                           "hello", &ci, &out, &err) < 0) {
		snprintf(result, sizeof(result), "%s", err.str);
		dpkg_error_destroy(&err);
		return result;
	}
	snprintf(result, sizeof(result), "%s", out);
	free(out);
	return result;
}

#define ENTRY(first) first "\n\n  * Change.\n\n" \
	" -- A <a@example.org>  Mon, 05 Jan 2026 10:00:00 +0100\n"

int
main(int argc, char **argv)
{
	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(12);

	test_str(rw(ENTRY("hello (1:2.10-3) unstable; urgency=medium")), ==,
	         ENTRY("extras-hello (1:2.10-3) unstable; urgency=medium"));
	test_str(ci.version, ==, "1:2.10-3");
	test_int(ci.timestamp, ==, 1767603600);
	test_str(rw(ENTRY("extras-hello (2.10-3) unstable; urgency=medium")), ==,
	         ENTRY("extras-hello (2.10-3) unstable; urgency=medium"));
	test_str(rw(ENTRY("other (2.10-3) unstable; urgency=medium")), ==,
	         "debian/changelog:1: source 'other' is not debian/control's "
	         "'hello'");
	test_str(rw(ENTRY("hello 2.10-3 unstable; urgency=medium")), ==,
	         "debian/changelog:1: malformed first line: expected 'SOURCE "
	         "(VERSION) DISTRIBUTION; urgency=...'");
	test_str(rw(ENTRY("hello (2.10 3) unstable; urgency=medium")), ==,
	         "debian/changelog:1: invalid version '2.10 3': version string "
	         "has embedded spaces");
	test_str(rw(ENTRY("Hello! (2.10-3) unstable; urgency=medium")), ==,
	         "debian/changelog:1: invalid source name 'Hello!': character "
	         "'!' not allowed (only letters, digits and characters '-+._')");
	test_str(rw("hello (1) unstable; urgency=low\n\n  * x\n"), ==,
	         "debian/changelog: first entry has no trailer line");
	test_str(rw("hello (1) unstable; urgency=low\n\n  * x\n"
	            "hello (0) unstable; urgency=low\n"), ==,
	         "debian/changelog:4: first entry has no trailer line");
	test_str(rw("hello (1) unstable; urgency=low\n\n"
	            " -- A <a@example.org>  yesterday\n"), ==,
	         "debian/changelog:3: malformed date 'yesterday' in trailer "
	         "line (expected RFC 5322)");
	test_str(rw("hello (1) unstable; urgency=low\n\n -- A\n"), ==,
	         "debian/changelog:3: malformed trailer line: expected ' -- "
	         "NAME <EMAIL>  DATE'");
	changelog_info_free(&ci);

	return test_done();
}
