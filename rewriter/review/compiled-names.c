/*
 * compiled-names.c: names a program carries in its read-only data.
 *
 * The names are kept reversed and sorted, so that walking a string
 * backwards from its NUL narrows them to those ending in what was read so
 * far: each byte costs two binary searches, whatever the number of names,
 * and a walk stops at the longest name or at the first byte no name has.
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "review/compiled-names.h"

static int
compare_reversed(const void *a, const void *b)
{
	const struct compiled_name *x = a, *y = b;

	return strcmp(x->reversed, y->reversed);
}

void
compiled_names_init(struct compiled_names *cn, char *const *names, size_t n)
{
	size_t i, j, len;

	cn->v = n > 0 ? m_malloc(n * sizeof(*cn->v)) : NULL;
	cn->n = 0;
	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (len == 0 || len > COMPILED_NAMES_MAX)
			continue;
		cn->v[cn->n].name = names[i];
		cn->v[cn->n].reversed = m_malloc(len + 1);
		for (j = 0; j < len; j++)
			cn->v[cn->n].reversed[j] = names[i][len - 1 - j];
		cn->v[cn->n].reversed[len] = '\0';
		cn->n++;
	}
	if (cn->n > 0)
		qsort(cn->v, cn->n, sizeof(*cn->v), compare_reversed);
}

void
compiled_names_free(struct compiled_names *cn)
{
	size_t i;

	for (i = 0; i < cn->n; i++)
		free(cn->v[i].reversed);
	free(cn->v);
	cn->v = NULL;
	cn->n = 0;
}

/* The first of V[LO..HI) whose byte DEPTH is at least C (or above C). */
static size_t
bound(const struct compiled_names *cn, size_t lo, size_t hi, size_t depth,
      unsigned char c, bool above)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned char m = (unsigned char)cn->v[mid].reversed[depth];

		if (m < c || (above && m == c))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
	       (c >= 'a' && c <= 'z');
}

/*
 * The names ending at S[END] (S[START..END) holding no NUL): each name
 * that is the whole of it, or (TAILS) a tail after a non-alphanumeric
 * byte.  FOUND gets the offset BASE + where it starts.
 */
static void
walk_back(const struct compiled_names *cn, const unsigned char *s,
          size_t start, size_t end, bool tails, size_t base,
          void (*found)(void *, const char *, size_t), void *ctx)
{
	size_t lo = 0, hi = cn->n, depth = 0, k = end;

	while (lo < hi) {
		/* Shorter names sort first: V[LO] ends here if any does. */
		if (depth > 0 && cn->v[lo].reversed[depth] == '\0' &&
		    (k == start || (tails && !is_alnum(s[k - 1]))))
			found(ctx, cn->v[lo].name, base + k);
		if (k == start || depth == COMPILED_NAMES_MAX)
			break;
		k--;
		lo = bound(cn, lo, hi, depth, s[k], false);
		hi = bound(cn, lo, hi, depth, s[k], true);
		depth++;
	}
}

/*
 * The NUL-terminated UTF-16LE strings of DATA starting at an offset of
 * parity PARITY; only ASCII ones can be names.
 */
static void
scan_utf16(const struct compiled_names *cn, const unsigned char *data,
           size_t len, size_t parity,
           void (*found)(void *, const char *, size_t), void *ctx)
{
	unsigned char ascii[COMPILED_NAMES_MAX];
	size_t at, start = parity, n = 0;
	bool ok = true;

	for (at = parity; at + 1 < len; at += 2) {
		unsigned char lo = data[at], hi = data[at + 1];

		if (lo == 0 && hi == 0) {
			if (ok && n > 0)
				walk_back(cn, ascii, 0, n, false, start, found,
				          ctx);
			n = 0;
			ok = true;
			start = at + 2;
		} else if (hi == 0 && lo > ' ' && lo < 0x7f &&
		           n < sizeof(ascii)) {
			ascii[n++] = lo;
		} else {
			ok = false;
		}
	}
}

void
compiled_names_scan(const struct compiled_names *cn,
                    const unsigned char *data, size_t len,
                    void (*found)(void *ctx, const char *name,
                                  size_t offset),
                    void *ctx)
{
	size_t at, start = 0;

	if (cn->n == 0)
		return;
	for (at = 0; at < len; at++) {
		if (data[at] != '\0')
			continue;
		if (at > start)
			walk_back(cn, data, start, at, true, 0, found, ctx);
		start = at + 1;
	}
	scan_utf16(cn, data, len, 0, found, ctx);
	scan_utf16(cn, data, len, 1, found, ctx);
}
