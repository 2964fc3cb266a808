/* The text an OpenPGP clear-signed message signs. */
#include "fuzz.h"
#include "debian/clearsign.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why = NULL;
	size_t outlen = 0, line = 0;
	char *text;

	text = clearsign_text((const char *)data, size, &outlen, &why, &line);
	if (text != NULL) {
		/* The signed text is never longer than the message. */
		if (outlen > size || text[outlen] != '\0')
			abort();
		free(text);
	} else if (why == NULL) {
		abort();
	}
	return 0;
}
