/*
 * patch-mo.c: gettext catalogues (.mo), whose translations are text.
 *
 * A catalogue is a header, a table of (length, offset) descriptors of the
 * original strings, one of their translations, each string followed by a
 * NUL, and a hash table of the originals (GNU gettext's "The Format of GNU
 * MO Files").  A translation that names a moved path is text a person
 * reads (tar's Polish "--rmt-command" help names /etc/rmt): it is patched
 * by appending the new string at the end of the file and pointing its
 * descriptor there, the old bytes cleared unless another string shares
 * them.  Nothing else moves, so the hash table stays right.
 *
 * The originals are what the program looks its messages up by: one that
 * names a moved path must stay as the program's string is, and is
 * reported, as is a reference anywhere else (a revision 1 catalogue's
 * system-dependent strings) or in a catalogue that does not read right.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/patch.h"

#define MO_MAGIC 0x950412deu
#define MO_HEADER_LEN 28
#define MO_REASON "gettext catalog (.mo)"

struct mo {
	const unsigned char *buf;
	size_t len;
	bool swap;		/* written in the other byte order */
	uint32_t n, originals, translations;
};

static uint32_t
get32(const struct mo *mo, size_t off)
{
	uint32_t v;

	memcpy(&v, mo->buf + off, 4);
	return mo->swap ? __builtin_bswap32(v) : v;
}

static void
put32(const struct mo *mo, unsigned char *out, size_t off, uint32_t v)
{
	if (mo->swap)
		v = __builtin_bswap32(v);
	memcpy(out + off, &v, 4);
}

bool
patch_is_mo(const unsigned char *buf, size_t len)
{
	return len >= 4 && (memcmp(buf, "\xde\x12\x04\x95", 4) == 0 ||
	                    memcmp(buf, "\x95\x04\x12\xde", 4) == 0);
}

/* Whether string I of the table at TABLE lies in the file, NUL after. */
static bool
string_ok(const struct mo *mo, uint32_t table, uint32_t i)
{
	uint64_t len = get32(mo, table + (size_t)i * 8);
	uint64_t off = get32(mo, table + (size_t)i * 8 + 4);

	return off + len < mo->len && mo->buf[off + len] == '\0';
}

/* Read the header and check every descriptor; false if it does not read
 * as a catalogue gettext would load, or as msgfmt writes one. */
static bool
mo_read(struct mo *mo, const unsigned char *buf, size_t len)
{
	uint32_t magic, revision, i;
	uint64_t translated = 0;

	mo->buf = buf;
	mo->len = len;
	if (len < MO_HEADER_LEN)
		return false;
	memcpy(&magic, buf, 4);
	mo->swap = magic != MO_MAGIC;
	revision = get32(mo, 4);
	mo->n = get32(mo, 8);
	mo->originals = get32(mo, 12);
	mo->translations = get32(mo, 16);
	if (revision >> 16 > 1 ||
	    (uint64_t)mo->originals + (uint64_t)mo->n * 8 > len ||
	    (uint64_t)mo->translations + (uint64_t)mo->n * 8 > len)
		return false;
	for (i = 0; i < mo->n; i++) {
		if (!string_ok(mo, mo->originals, i) ||
		    !string_ok(mo, mo->translations, i))
			return false;
		/* msgfmt writes each string once: translations that share
		 * their bytes many times over would be scanned as often. */
		translated += get32(mo, mo->translations + (size_t)i * 8);
		if (translated > len)
			return false;
	}
	return true;
}

/* A translation's bytes, for telling references in one from the rest. */
struct span {
	uint64_t start, end;
};

static int
compare_spans(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether [START, END) lies within one of the N sorted SPANS. */
static bool
within(const struct span *spans, size_t n, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = n;

	/* The last span starting at or before START. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (spans[mid].start <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && end <= spans[lo - 1].end;
}

/*
 * Every string of the catalogue by where it starts, and how far those
 * before each reach: whether a string shares its bytes with another.
 */
struct layout {
	struct span *all;
	uint64_t *reach;
	size_t n;
};

static int
layout_new(struct layout *l, const struct mo *mo)
{
	size_t i;

	l->n = (size_t)mo->n * 2;
	l->all = malloc((l->n + 1) * sizeof(*l->all));
	l->reach = malloc((l->n + 1) * sizeof(*l->reach));
	if (l->all == NULL || l->reach == NULL) {
		free(l->all);
		free(l->reach);
		return -1;
	}
	for (i = 0; i < mo->n; i++) {
		uint32_t tables[2] = { mo->originals, mo->translations };
		int t;

		for (t = 0; t < 2; t++) {
			size_t desc = tables[t] + i * 8;
			uint64_t off = get32(mo, desc + 4);

			l->all[i * 2 + t].start = off;
			l->all[i * 2 + t].end = off + get32(mo, desc);
		}
	}
	qsort(l->all, l->n, sizeof(*l->all), compare_spans);
	l->reach[0] = 0;
	for (i = 0; i < l->n; i++)
		l->reach[i + 1] = l->all[i].end > l->reach[i] ?
		                  l->all[i].end : l->reach[i];
	return 0;
}

/* The first of L's strings starting at or after AT. */
static size_t
layout_first(const struct layout *l, uint64_t at)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->all[mid].start < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether a string other than the one at [START, END) has bytes there. */
static bool
layout_shared(const struct layout *l, uint64_t start, uint64_t end)
{
	size_t first = layout_first(l, start);

	return l->reach[first] > start ||
	       layout_first(l, end) - first > 1;
}

/* Every reference in BUF, as the blob scanner reports them. */
static void
report_all(struct pathmap_scanner *sc, const char *file,
           const unsigned char *buf, size_t len, const struct span *spans,
           size_t nspans, struct report *report)
{
	struct pathmap_match m;
	size_t pos = 0;

	while (pathmap_next(sc, buf, len, pos, &m)) {
		if (!within(spans, nspans, m.start, m.start + m.len))
			report_unpatched(report, file, (long long)m.start,
			                 (const char *)buf + m.start, m.len,
			                 MO_REASON);
		pos = m.start + m.len;
	}
}

/* The size of the catalogue once its translations are patched. */
static uint64_t
patched_size(struct pathmap_scanner *sc, const struct mo *mo)
{
	uint64_t size = (mo->len + 3) / 4 * 4;
	uint32_t i;

	for (i = 0; i < mo->n; i++) {
		size_t desc = mo->translations + (size_t)i * 8;
		uint32_t tlen = get32(mo, desc), toff = get32(mo, desc + 4);
		struct pathmap_match m;
		uint64_t grown = tlen;
		size_t pos = 0;

		while (pathmap_next(sc, mo->buf + toff, tlen, pos, &m)) {
			grown += strlen(m.new) - (uint64_t)m.len;
			pos = m.start + m.len;
		}
		if (pos > 0)
			size += (grown + 1 + 3) / 4 * 4;
	}
	return size;
}

int
patch_mo(struct pathmap_scanner *sc, const char *file,
         const unsigned char *buf, size_t len, struct patch_result *res,
         struct report *report)
{
	struct mo mo;
	struct span *spans;
	struct layout layout;
	struct patch_out o = { 0 };
	uint32_t i;

	/* Offsets are 32 bits: a catalogue that would grow past them is
	 * left as it is, its references reported. */
	if (!mo_read(&mo, buf, len) || patched_size(sc, &mo) > UINT32_MAX) {
		report_all(sc, file, buf, len, NULL, 0, report);
		return 0;
	}
	spans = malloc(((size_t)mo.n + 1) * sizeof(*spans));
	if (spans == NULL || layout_new(&layout, &mo) < 0) {
		free(spans);
		return -1;
	}
	/* The new strings go after the file as it is, 4-byte aligned. */
	patch_out_append(&o, buf, len);
	while (o.len % 4 != 0)
		patch_out_append(&o, "", 1);
	for (i = 0; i < mo.n && !o.oom; i++) {
		size_t desc = mo.translations + (size_t)i * 8, start = o.len;
		uint32_t tlen = get32(&mo, desc), toff = get32(&mo, desc + 4);
		const unsigned char *t = buf + toff;
		struct pathmap_match m;
		size_t pos = 0;

		spans[i].start = toff;
		spans[i].end = (uint64_t)toff + tlen;
		while (pathmap_next(sc, t, tlen, pos, &m)) {
			report_patch(report, file, "mo-translation", -1,
			             (long long)toff + (long long)m.start, m.old,
			             m.len, m.new);
			patch_out_append(&o, t + pos, m.start - pos);
			patch_out_append(&o, m.new, strlen(m.new));
			pos = m.start + m.len;
		}
		if (pos == 0)
			continue;
		patch_out_append(&o, t + pos, tlen - pos);
		patch_out_append(&o, "", 1);
		if (o.oom)
			break;
		put32(&mo, o.data, desc, (uint32_t)(o.len - 1 - start));
		put32(&mo, o.data, desc + 4, (uint32_t)start);
		/* The old bytes, now no string's, cleared: the next run of
		 * the patchers (dh_extras_links) must not find them. */
		if (!layout_shared(&layout, toff, (uint64_t)toff + tlen))
			memset(o.data + toff, 0, tlen);
		while (o.len % 4 != 0)
			patch_out_append(&o, "", 1);
	}
	free(layout.all);
	free(layout.reach);
	if (o.oom) {
		free(o.data);
		free(spans);
		return -1;
	}
	qsort(spans, mo.n, sizeof(*spans), compare_spans);
	report_all(sc, file, buf, len, spans, mo.n, report);
	free(spans);
	if (o.len == (len + 3) / 4 * 4) {
		free(o.data);
		return 0;
	}
	res->data = o.data;
	res->len = o.len;
	return 0;
}
