/* Facts about utf8_clean: valid UTF-8 kept, every other byte \xNN. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "base/utf8.h"

static void
clean_is(const char *s, size_t len, const char *want)
{
	char *got = utf8_clean(s, len);

	test_str(got, ==, want);
	free(got);
}

int
main(void)
{
	test_plan(9);

	clean_is("plain", 5, "plain");
	clean_is("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x90\xa7", 14,
	         "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x90\xa7");
	/* Latin-1, a lone continuation byte, a cut sequence. */
	clean_is("caf\xe9", 4, "caf\\xe9");
	clean_is("\x80x", 2, "\\x80x");
	clean_is("\xe2\x9c", 2, "\\xe2\\x9c");
	/* Overlong, a surrogate, past U+10FFFF. */
	clean_is("\xc0\xaf", 2, "\\xc0\\xaf");
	clean_is("\xed\xa0\x80", 3, "\\xed\\xa0\\x80");
	clean_is("\xf4\x90\x80\x80", 4, "\\xf4\\x90\\x80\\x80");
	/* A NUL byte, which would end the string. */
	clean_is("a\0b", 3, "a\\x00b");
	return 0;
}
