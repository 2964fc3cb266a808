/*
 * clearsign.c: the text an OpenPGP clear-signed message signs.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "debian/clearsign.h"

#define SIGNED_BEGIN "-----BEGIN PGP SIGNED MESSAGE-----"
#define SIGNATURE_BEGIN "-----BEGIN PGP SIGNATURE-----"

static bool
starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(line, prefix, n) == 0;
}

/* Blank but for trailing whitespace (a CR, spaces). */
static bool
is_empty(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return false;
	return true;
}

char *
clearsign_text(const char *text, size_t len, size_t *outlen)
{
	const char *p = text, *end = text + len;
	char *out = malloc(len + 1);
	size_t n = 0;
	bool in_headers = true, signed_text = false;

	if (out == NULL)
		abort();
	/* Leading blank lines are allowed before the armor. */
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!is_empty(p, l))
			break;
		p = nl ? nl + 1 : end;
	}
	if (!starts(p, end - p, SIGNED_BEGIN)) {
		memcpy(out, text, len);
		out[len] = '\0';
		*outlen = len;
		return out;
	}
	p = memchr(p, '\n', end - p);
	p = p ? p + 1 : end;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;

		if (in_headers) {
			if (is_empty(p, l))
				in_headers = false;
		} else if (starts(p, l, SIGNATURE_BEGIN)) {
			signed_text = true;
			break;
		} else {
			if (l >= 2 && p[0] == '-' && p[1] == ' ') {
				p += 2;
				l -= 2;
			}
			memcpy(out + n, p, l);
			n += l;
			out[n++] = '\n';
		}
		p = next;
	}
	if (!signed_text) {
		free(out);
		return NULL;
	}
	out[n] = '\0';
	*outlen = n;
	return out;
}
