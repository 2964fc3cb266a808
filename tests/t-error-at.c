/* Facts about the library's one-line errors: whole, or cleanly elided. */
#include <string.h>

#include "../tests/tap.h"
#include "base/error-at.h"

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char path[5001], what[700];
	size_t len;

	test_plan(11);

	put_error_at(&err, "debian/control", 3, "bad %s", "field");
	test_str(err.str, ==, "debian/control:3: bad field");
	put_error_at(&err, "x.dsc", 0, "two\nlines");
	test_str(err.str, ==, "x.dsc: two lines");

	/* A 5,000-byte member path: the start, "...", and the reason. */
	memset(path, 'd', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	put_error_at(&err, "greet.debian.tar.xz", 0,
	             "member '%s' is refused", path);
	len = strlen(err.str);
	test_int(len, ==, ERROR_AT_MAX - 1);
	test_ok(strncmp(err.str, "greet.debian.tar.xz: member 'ddd", 32) == 0);
	test_ok(strstr(err.str, "d...d") != NULL);
	test_str(err.str + len - 12, ==, "' is refused");

	/* A long reason is no longer cut at half the buffer. */
	memset(what, 'w', sizeof(what) - 1);
	what[sizeof(what) - 1] = '\0';
	put_error_at(&err, "f", 0, "%s!", what);
	test_int(strlen(err.str), ==, strlen(what) + 4);
	test_str(err.str + strlen(err.str) - 2, ==, "w!");

	/* UTF-8 is cut between characters. */
	{
		char utf8[3001];
		size_t i;

		for (i = 0; i + 2 < sizeof(utf8); i += 2)
			memcpy(utf8 + i, "\xc3\xa9", 2);
		utf8[i] = '\0';
		put_error_at(&err, "f", 0, "%s", utf8);
		len = strlen(err.str);
		test_ok(len < ERROR_AT_MAX);
		test_ok(strstr(err.str, "\xc3\xa9...\xc3\xa9") != NULL);
		test_str(err.str + len - 2, ==, "\xc3\xa9");
	}
	dpkg_error_destroy(&err);
	return test_done();
}
