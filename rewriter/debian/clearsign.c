/*
 * clearsign.c: the text an OpenPGP clear-signed message signs.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "debian/clearsign.h"

#define ARMOR "-----BEGIN PGP "
#define SIGNED_BEGIN "-----BEGIN PGP SIGNED MESSAGE-----"
#define SIGNATURE_BEGIN "-----BEGIN PGP SIGNATURE-----"
#define SIGNATURE_END "-----END PGP SIGNATURE-----"

struct reader {
	const char *p, *end;
	/* The current line and its length, without the newline. */
	const char *line;
	size_t len, lineno;
};

static bool
next_line(struct reader *rd)
{
	const char *nl;

	if (rd->p >= rd->end)
		return false;
	nl = memchr(rd->p, '\n', rd->end - rd->p);
	rd->line = rd->p;
	rd->len = nl ? (size_t)(nl - rd->p) : (size_t)(rd->end - rd->p);
	rd->p = nl ? nl + 1 : rd->end;
	rd->lineno++;
	return true;
}

static bool
is_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
		    s[i] != '\f' && s[i] != '\v')
			return false;
	return true;
}

static bool
starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(line, prefix, n) == 0;
}

/* LINE is the armor line MARKER, but for trailing [\r\t ]* (as dpkg). */
static bool
is_armor(const char *line, size_t len, const char *marker)
{
	size_t n = strlen(marker), i;

	if (!starts(line, len, marker))
		return false;
	for (i = n; i < len; i++)
		if (line[i] != '\r' && line[i] != '\t' && line[i] != ' ')
			return false;
	return true;
}

/* "Name: value", as armor headers are (RFC 4880, 6.2). */
static bool
is_armor_header(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && line[i] != ':' && line[i] != ' ')
		i++;
	return i > 0 && i + 1 < len && line[i] == ':' && line[i + 1] == ' ';
}

static char *
fail(char *out, const struct reader *rd, const char *reason,
     const char **why, size_t *line)
{
	free(out);
	*why = reason;
	*line = rd->lineno;
	return NULL;
}

/* TEXT unsigned: returned as it is, unless it holds an armor line. */
static char *
unsigned_text(const char *text, size_t len, size_t *outlen, char *out,
              const char **why, size_t *line)
{
	struct reader rd = { text, text + len, NULL, 0, 0 };

	while (next_line(&rd))
		if (starts(rd.line, rd.len, ARMOR) ||
		    starts(rd.line, rd.len, "-----END PGP "))
			return fail(out, &rd, "an OpenPGP armor line out of "
			            "place", why, line);
	memcpy(out, text, len);
	out[len] = '\0';
	*outlen = len;
	return out;
}

char *
clearsign_text(const char *text, size_t len, size_t *outlen,
               const char **why, size_t *line)
{
	struct reader rd = { text, text + len, NULL, 0, 0 };
	char *out = malloc(len + 1);
	size_t n = 0;
	bool more;

	if (out == NULL)
		abort();
	while ((more = next_line(&rd)) && is_blank(rd.line, rd.len))
		;
	if (!more || !starts(rd.line, rd.len, SIGNED_BEGIN))
		return unsigned_text(text, len, outlen, out, why, line);
	if (!is_armor(rd.line, rd.len, SIGNED_BEGIN))
		return fail(out, &rd, "not an exact armor line", why, line);
	/* The armor headers, up to a blank line. */
	for (;;) {
		if (!next_line(&rd))
			return fail(out, &rd, "no blank line after the armor "
			            "headers", why, line);
		if (is_blank(rd.line, rd.len))
			break;
		if (!is_armor_header(rd.line, rd.len))
			return fail(out, &rd, "not an armor header", why, line);
	}
	/* The signed text, dash-escaped, up to the signature. */
	for (;;) {
		if (!next_line(&rd))
			return fail(out, &rd, "no signature after the signed "
			            "text", why, line);
		if (is_armor(rd.line, rd.len, SIGNATURE_BEGIN))
			break;
		if (rd.len > 0 && rd.line[0] == '-') {
			if (!starts(rd.line, rd.len, "- "))
				return fail(out, &rd, "a line of the signed "
				            "text starting with '-' is not "
				            "dash-escaped", why, line);
			memcpy(out + n, rd.line + 2, rd.len - 2);
			n += rd.len - 2;
		} else {
			memcpy(out + n, rd.line, rd.len);
			n += rd.len;
		}
		out[n++] = '\n';
	}
	/* The signature, up to its end line. */
	do {
		if (!next_line(&rd))
			return fail(out, &rd, "unfinished signature", why, line);
	} while (!is_armor(rd.line, rd.len, SIGNATURE_END));
	/* Nothing after it: the signature would not cover it. */
	while (next_line(&rd))
		if (!is_blank(rd.line, rd.len))
			return fail(out, &rd, "text after the signature, which "
			            "does not cover it", why, line);
	out[n] = '\0';
	*outlen = n;
	return out;
}
