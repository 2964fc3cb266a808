/*
 * patch-info.c: GNU Info manuals, which are text with two twists.
 *
 *   - makeinfo marks each index node with a "\0\b[index\0\b]" cookie, so
 *     the file holds NUL bytes and would be taken for binary data, whose
 *     references are reported and never patched: units' manual names its
 *     data directory three times.
 *   - The tag table at the end gives each node's and anchor's byte
 *     offset ("Node: Top\x7f842").  A patched path of another length
 *     moves what follows it, so the offsets are carried through the
 *     text patcher's edits.  Readers search near a stale offset, but
 *     only so far (GNU info and Emacs look 1,000 bytes around it).
 *
 * A split manual's tag table ("(Indirect)") counts offsets across all its
 * files and is left as it is: each part is patched on its own, and a part
 * moves only by its own edits, which readers' search covers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/patch.h"

static const char NODE_START[] = "\x1f\nFile: ";
static const char TAG_TABLE[] = "\x1f\nTag Table:\n";
static const char INDIRECT[] = "(Indirect)\n";

bool
patch_is_info(const unsigned char *buf, size_t len)
{
	const unsigned char *p = buf, *end = buf + len;

	if (memmem(buf, len, NODE_START, sizeof(NODE_START) - 1) == NULL)
		return false;
	/* Every NUL begins an index cookie, "\0\b[" or "\0\b]". */
	while ((p = memchr(p, '\0', (size_t)(end - p))) != NULL) {
		if (end - p < 3 || p[1] != '\b' || (p[2] != '[' && p[2] != ']'))
			return false;
		p += 3;
	}
	return true;
}

int
text_edits_add(struct text_edits *edits, size_t at, size_t oldlen,
               size_t newlen)
{
	if (edits == NULL)
		return 0;
	if (edits->n == edits->alloc) {
		size_t a = edits->alloc ? edits->alloc * 2 : 16;
		void *v = reallocarray(edits->v, a, sizeof(*edits->v));

		if (v == NULL)
			return -1;
		edits->v = v;
		edits->alloc = a;
	}
	edits->v[edits->n++] = (struct text_edit){
		.at = at, .oldlen = oldlen, .shift_before = edits->shift,
	};
	edits->shift += (long long)newlen - (long long)oldlen;
	return 0;
}

void
text_edits_free(struct text_edits *edits)
{
	free(edits->v);
	*edits = (struct text_edits){ 0 };
}

/*
 * Where offset X of a pass's input is in its output.  The edits are in
 * order and do not overlap, so those ending at or before X are a prefix,
 * found by bisection; X inside an edit goes to where the edit starts.
 */
static unsigned long long
map_offset(const struct text_edits *e, unsigned long long x)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->v[mid].at + e->v[mid].oldlen <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == e->n)
		return x + (unsigned long long)e->shift;
	if (e->v[lo].at < x)
		x = e->v[lo].at;
	return x + (unsigned long long)e->v[lo].shift_before;
}

unsigned char *
patch_info_retag(const unsigned char *buf, size_t len,
                 const struct text_edits *passes, size_t npasses,
                 size_t *outlen, bool *oom)
{
	const unsigned char *table, *p, *q, *end = buf + len;
	unsigned char *out, *o;
	size_t i, tags = 0, shifted = 0;

	*oom = false;
	table = memmem(buf, len, TAG_TABLE, sizeof(TAG_TABLE) - 1);
	if (table == NULL)
		return NULL;
	p = table + sizeof(TAG_TABLE) - 1;
	if ((size_t)(end - p) >= sizeof(INDIRECT) - 1 &&
	    memcmp(p, INDIRECT, sizeof(INDIRECT) - 1) == 0)
		return NULL;
	/* An offset of one digit may become 20 (and sprintf adds a NUL). */
	for (q = p; (q = memchr(q, '\x7f', (size_t)(end - q))) != NULL; q++)
		tags++;
	out = malloc(len + tags * 19 + 1);
	if (out == NULL) {
		*oom = true;
		return NULL;
	}
	memcpy(out, buf, (size_t)(p - buf));
	o = out + (p - buf);
	/* One line a tag, "Node: NAME\x7fOFFSET", up to the closing "\x1f". */
	while (p < end && *p != '\x1f') {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *eol = nl ? nl : end;
		const unsigned char *del = memchr(p, '\x7f', (size_t)(eol - p));
		const unsigned char *d;
		unsigned long long x = 0;
		bool number = del != NULL && del + 1 < eol && eol - del <= 20;

		for (d = del ? del + 1 : eol; number && d < eol; d++) {
			number = *d >= '0' && *d <= '9';
			x = x * 10 + (unsigned long long)(*d - '0');
		}
		if (!number) {
			memcpy(o, p, (size_t)(eol - p));
			o += eol - p;
		} else {
			unsigned long long y = x;

			for (i = 0; i < npasses; i++)
				y = map_offset(&passes[i], y);
			shifted += y != x;
			memcpy(o, p, (size_t)(del + 1 - p));
			o += del + 1 - p;
			o += sprintf((char *)o, "%llu", y);
		}
		if (nl == NULL) {
			p = end;
			break;
		}
		*o++ = '\n';
		p = nl + 1;
	}
	if (shifted == 0) {
		free(out);
		return NULL;
	}
	memcpy(o, p, (size_t)(end - p));
	o += end - p;
	*outlen = (size_t)(o - out);
	return out;
}
