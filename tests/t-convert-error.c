/* Facts about extras-convert's one-line errors: whole, or cleanly elided. */
#include <string.h>

#include "../tests/tap.h"
#include "base/convert-error.h"

int
main(void)
{
	struct convert_error err;
	char path[5001], what[700];
	size_t len;

	test_plan(11);

	convert_fail(&err, "debian/control", 3, "bad %s", "field");
	test_str(err.msg, ==, "debian/control:3: bad field");
	convert_fail(&err, "x.dsc", 0, "two\nlines");
	test_str(err.msg, ==, "x.dsc: two lines");

	/* A 5,000-byte member path: the start, "...", and the reason. */
	memset(path, 'd', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	convert_fail(&err, "greet.debian.tar.xz", 0,
	             "member '%s' is refused", path);
	len = strlen(err.msg);
	test_int(len, ==, CONVERT_ERR_MAX - 1);
	test_ok(strncmp(err.msg, "greet.debian.tar.xz: member 'ddd", 32) == 0);
	test_ok(strstr(err.msg, "d...d") != NULL);
	test_str(err.msg + len - 12, ==, "' is refused");

	/* A long reason is no longer cut at half the buffer. */
	memset(what, 'w', sizeof(what) - 1);
	what[sizeof(what) - 1] = '\0';
	convert_fail(&err, "f", 0, "%s!", what);
	test_int(strlen(err.msg), ==, strlen(what) + 4);
	test_str(err.msg + strlen(err.msg) - 2, ==, "w!");

	/* UTF-8 is cut between characters. */
	{
		char utf8[3001];
		size_t i;

		for (i = 0; i + 2 < sizeof(utf8); i += 2)
			memcpy(utf8 + i, "\xc3\xa9", 2);
		utf8[i] = '\0';
		convert_fail(&err, "f", 0, "%s", utf8);
		len = strlen(err.msg);
		test_ok(len < CONVERT_ERR_MAX);
		test_ok(strstr(err.msg, "\xc3\xa9...\xc3\xa9") != NULL);
		test_str(err.msg + len - 2, ==, "\xc3\xa9");
	}
	return test_done();
}
