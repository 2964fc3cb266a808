/* Facts about unwrapping a clear-signed message as dpkg reads one. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "debian/clearsign.h"

#define HEAD "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
#define SIG "-----BEGIN PGP SIGNATURE-----\n\niQ==\n" \
	"-----END PGP SIGNATURE-----\n"

static char why_line[256];

/* The text TEXT signs, or "LINE: WHY". */
static const char *
unwrap(const char *text)
{
	static char *out;
	const char *why;
	size_t len, line;

	free(out);
	out = clearsign_text(text, strlen(text), &len, &why, &line);
	if (out == NULL) {
		snprintf(why_line, sizeof(why_line), "%zu: %s", line, why);
		return why_line;
	}
	return out;
}

int
main(void)
{
	test_plan(16);

	test_str(unwrap("Source: a\n"), ==, "Source: a\n");
	test_str(unwrap(HEAD "Source: a\n" SIG), ==, "Source: a\n");
	test_str(unwrap("\n\n" HEAD "Source: a\n" SIG "\n \n"), ==,
	         "Source: a\n");
	/* Trailing blanks and a CR on armor lines, as dpkg allows. */
	test_str(unwrap("-----BEGIN PGP SIGNED MESSAGE----- \r\nHash: SHA256\n"
	                "\r\nA: b\n-----BEGIN PGP SIGNATURE-----\t\n\niQ==\n"
	                "-----END PGP SIGNATURE-----\r\n"), ==, "A: b\n");
	test_str(unwrap(HEAD "- -dash: x\n" SIG), ==, "-dash: x\n");
	/* A stanza after the signature is not signed. */
	test_str(unwrap(HEAD "Source: a\n" SIG "\nSource: evil\n"), ==,
	         "10: text after the signature, which does not cover it");
	test_str(unwrap(HEAD "Source: a\n" SIG "Source: evil\n"), ==,
	         "9: text after the signature, which does not cover it");
	/* Nor a stanza before it. */
	test_str(unwrap("Source: evil\n\n" HEAD "Source: a\n" SIG), ==,
	         "3: an OpenPGP armor line out of place");
	test_str(unwrap("-----BEGIN PGP SIGNED MESSAGE-----x\n\nA: b\n" SIG),
	         ==, "1: not an exact armor line");
	test_str(unwrap(HEAD "A: b\n-----BEGIN PGP SIGNATURE----- junk\n"
	                "\niQ==\n-----END PGP SIGNATURE-----\n"), ==,
	         "5: a line of the signed text starting with '-' is not "
	         "dash-escaped");
	test_str(unwrap(HEAD "A: b\n-----BEGIN PGP SIGNATURE-----\n\niQ==\n"),
	         ==, "7: unfinished signature");
	test_str(unwrap(HEAD "A: b\n"), ==,
	         "4: no signature after the signed text");
	test_str(unwrap("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n"),
	         ==, "2: no blank line after the armor headers");
	test_str(unwrap("-----BEGIN PGP SIGNED MESSAGE-----\nA: b\nC\n\n"),
	         ==, "3: not an armor header");
	test_str(unwrap(HEAD "A: b\n-----END PGP SIGNATURE-----\n" SIG), ==,
	         "5: a line of the signed text starting with '-' is not "
	         "dash-escaped");
	test_str(unwrap(""), ==, "");

	return test_done();
}
