/*
 * pathmap.c: the old paths a package's files had, and where they went.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <limits.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathmap.h"

struct pathmap_entry {
	char *old;
	char *new;
	size_t oldlen;
	uint64_t hash;
};

struct pathmap {
	struct pathmap_entry *entries;
	size_t count, alloc;
	/* Open addressing: indexes into entries, plus one; 0 is empty. */
	size_t *slots;
	size_t nslots;
	pcre2_code *candidate;
	pcre2_code *candidate_utf16;
};

struct pathmap_scanner {
	const struct pathmap *map;
	pcre2_match_data *md;
	pcre2_match_data *md16;
};

/* Bytes that end a path token: blanks, quotes, separators. */
static bool
is_token_end(unsigned char c)
{
	return c <= ' ' || c == 0x7f || strchr("\"'<>;,:=|&*?()[]{}`$\\", c);
}

static uint64_t
hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct pathmap *
pathmap_new(void)
{
	return calloc(1, sizeof(struct pathmap));
}

void
pathmap_free(struct pathmap *map)
{
	size_t i;

	if (map == NULL)
		return;
	for (i = 0; i < map->count; i++) {
		free(map->entries[i].old);
		free(map->entries[i].new);
	}
	free(map->entries);
	free(map->slots);
	pcre2_code_free(map->candidate);
	pcre2_code_free(map->candidate_utf16);
	free(map);
}

size_t
pathmap_count(const struct pathmap *map)
{
	return map->count;
}

static int
slots_grow(struct pathmap *map)
{
	size_t nslots = map->nslots ? map->nslots * 2 : 1024;
	size_t *slots = calloc(nslots, sizeof(*slots));
	size_t i;

	if (slots == NULL)
		return -1;
	for (i = 0; i < map->count; i++) {
		size_t s = map->entries[i].hash & (nslots - 1);

		while (slots[s])
			s = (s + 1) & (nslots - 1);
		slots[s] = i + 1;
	}
	free(map->slots);
	map->slots = slots;
	map->nslots = nslots;
	return 0;
}

static const struct pathmap_entry *
lookup_entry(const struct pathmap *map, const char *old, size_t len)
{
	uint64_t h;
	size_t s;

	if (map->nslots == 0)
		return NULL;
	h = hash_bytes(old, len);
	for (s = h & (map->nslots - 1); map->slots[s];
	     s = (s + 1) & (map->nslots - 1)) {
		const struct pathmap_entry *e = &map->entries[map->slots[s] - 1];

		if (e->hash == h && e->oldlen == len &&
		    memcmp(e->old, old, len) == 0)
			return e;
	}
	return NULL;
}

const char *
pathmap_lookup(const struct pathmap *map, const char *old, size_t len)
{
	const struct pathmap_entry *e = lookup_entry(map, old, len);

	return e ? e->new : NULL;
}

int
pathmap_add(struct pathmap *map, const char *old, const char *new)
{
	struct pathmap_entry *e;
	size_t len = strlen(old);
	size_t s;

	if (pathmap_lookup(map, old, len) != NULL)
		return 0;
	if (map->count == map->alloc) {
		size_t alloc = map->alloc ? map->alloc * 2 : 256;
		void *v = realloc(map->entries, alloc * sizeof(*e));

		if (v == NULL)
			return -1;
		map->entries = v;
		map->alloc = alloc;
	}
	if ((map->count + 1) * 2 > map->nslots && slots_grow(map) < 0)
		return -1;
	e = &map->entries[map->count];
	e->old = strdup(old);
	e->new = strdup(new);
	if (e->old == NULL || e->new == NULL) {
		free(e->old);
		free(e->new);
		return -1;
	}
	e->oldlen = len;
	e->hash = hash_bytes(old, len);
	for (s = e->hash & (map->nslots - 1); map->slots[s];
	     s = (s + 1) & (map->nslots - 1))
		;
	map->slots[s] = ++map->count;
	return 0;
}

/* Append C to the pattern as a \x{..} escape (UTF16: with a NUL byte). */
static void
pattern_byte(char *pat, size_t *n, size_t size, unsigned char c,
             int utf16)
{
	if (utf16 == 1)		/* little endian: char, then NUL */
		*n += snprintf(pat + *n, size - *n, "\\x%02x\\x00", c);
	else if (utf16 == 2)	/* big endian: NUL, then char */
		*n += snprintf(pat + *n, size - *n, "\\x00\\x%02x", c);
	else
		*n += snprintf(pat + *n, size - *n, "\\x%02x", c);
	if (*n >= size)
		*n = size - 1;
}

/*
 * The candidate pattern: a slash, one of the old paths' first components,
 * then a boundary; not preceded by a name byte or a slash-free path.
 */
static char *
build_pattern(const struct pathmap *map, int utf16)
{
	size_t size = 16 * 1024, n = 0, i, j;
	char *pat = malloc(size);
	char **tops = calloc(map->count + 1, sizeof(char *));
	size_t ntops = 0;

	if (pat == NULL || tops == NULL) {
		free(pat);
		free(tops);
		return NULL;
	}
	for (i = 0; i < map->count; i++) {
		const char *old = map->entries[i].old + 1;
		size_t len = strcspn(old, "/");

		for (j = 0; j < ntops; j++)
			if (strlen(tops[j]) == len && strncmp(tops[j], old, len) == 0)
				break;
		if (j == ntops && ntops < 64)
			tops[ntops++] = strndup(old, len);
	}
	if (utf16 == 0)
		n += snprintf(pat + n, size - n,
		              "(?<![A-Za-z0-9._+~@\\x80-\\xff-])");
	pattern_byte(pat, &n, size, '/', utf16);
	n += snprintf(pat + n, size - n, "(?:");
	for (j = 0; j < ntops; j++) {
		const unsigned char *t = (const unsigned char *)tops[j];

		if (j > 0)
			n += snprintf(pat + n, size - n, "|");
		for (; *t; t++)
			pattern_byte(pat, &n, size, *t, utf16);
		free(tops[j]);
	}
	n += snprintf(pat + n, size - n, ")");
	if (utf16 == 0)
		snprintf(pat + n, size - n, "(?![A-Za-z0-9._+~@\\x80-\\xff-])");
	free(tops);
	return pat;
}

static pcre2_code *
compile_pattern(const char *pat, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	                               0, &code, &off, NULL);

	if (re == NULL) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		snprintf(err, errlen, "path pattern: %s at offset %zu", msg,
		         (size_t)off);
		return NULL;
	}
	/* Without JIT the interpreter still gives the same answers. */
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

int
pathmap_compile(struct pathmap *map, char *err, size_t errlen)
{
	char *pat;

	if (map->count == 0)
		return 0;
	pat = build_pattern(map, 0);
	if (pat == NULL)
		goto oom;
	map->candidate = compile_pattern(pat, err, errlen);
	free(pat);
	if (map->candidate == NULL)
		return -1;
	pat = build_pattern(map, 1);
	if (pat == NULL)
		goto oom;
	/* Both byte orders: the LE form, or the same shifted by one byte. */
	{
		size_t len = strlen(pat);
		char *both = malloc(len * 2 + 16);

		if (both == NULL) {
			free(pat);
			goto oom;
		}
		snprintf(both, len * 2 + 16, "%s|\\x00%s", pat, pat);
		free(pat);
		map->candidate_utf16 = compile_pattern(both, err, errlen);
		free(both);
	}
	if (map->candidate_utf16 == NULL)
		return -1;
	return 0;
oom:
	snprintf(err, errlen, "path pattern: out of memory");
	return -1;
}

struct pathmap_scanner *
pathmap_scanner_new(const struct pathmap *map)
{
	struct pathmap_scanner *sc = calloc(1, sizeof(*sc));

	if (sc == NULL)
		return NULL;
	sc->map = map;
	if (map->candidate) {
		sc->md = pcre2_match_data_create_from_pattern(map->candidate,
		                                              NULL);
		sc->md16 = pcre2_match_data_create_from_pattern(
			map->candidate_utf16, NULL);
	}
	return sc;
}

void
pathmap_scanner_free(struct pathmap_scanner *sc)
{
	if (sc == NULL)
		return;
	pcre2_match_data_free(sc->md);
	pcre2_match_data_free(sc->md16);
	free(sc);
}

/*
 * The longest old path that TOKEN[0..LEN) starts with, ending at a
 * boundary (the token's end, or a byte that cannot continue a name).
 */
static bool
longest_prefix(const struct pathmap *map, const char *token, size_t len,
               struct pathmap_match *match)
{
	size_t i;

	for (i = len; i > 1; i--) {
		const struct pathmap_entry *e;

		if (i < len && pathmap_is_name_byte((unsigned char)token[i]))
			continue;
		e = lookup_entry(map, token, i);
		if (e != NULL) {
			match->len = i;
			match->old = e->old;
			match->new = e->new;
			return true;
		}
	}
	return false;
}

bool
pathmap_resolve(const struct pathmap *map, const char *path,
                struct pathmap_match *match)
{
	match->start = 0;
	return longest_prefix(map, path, strlen(path), match);
}

bool
pathmap_next(struct pathmap_scanner *sc, const unsigned char *buf,
             size_t len, size_t from, struct pathmap_match *match)
{
	const struct pathmap *map = sc->map;

	if (map->candidate == NULL)
		return false;
	while (from < len) {
		PCRE2_SIZE *ov;
		size_t start, end;
		int rc;

		rc = pcre2_match(map->candidate, buf, len, from, 0, sc->md, NULL);
		if (rc < 0)
			return false;
		ov = pcre2_get_ovector_pointer(sc->md);
		start = ov[0];
		for (end = ov[1]; end < len && end - start < PATH_MAX &&
		     !is_token_end(buf[end]); end++)
			;
		if (longest_prefix(map, (const char *)buf + start, end - start,
		                   match)) {
			match->start = start;
			return true;
		}
		from = ov[1];
	}
	return false;
}

bool
pathmap_next_utf16(struct pathmap_scanner *sc, const unsigned char *buf,
                   size_t len, size_t from, struct pathmap_match *match)
{
	const struct pathmap *map = sc->map;

	if (map->candidate_utf16 == NULL)
		return false;
	while (from < len) {
		char token[PATH_MAX];
		PCRE2_SIZE *ov;
		size_t start, i, n = 0;
		int rc, big_endian;

		rc = pcre2_match(map->candidate_utf16, buf, len, from, 0,
		                 sc->md16, NULL);
		if (rc < 0)
			return false;
		ov = pcre2_get_ovector_pointer(sc->md16);
		/*
		 * The second alternative starts at the NUL before the slash.
		 * Mid-string, both byte orders look the same; the offset given
		 * is the slash's, as for little endian, the common order.
		 */
		big_endian = buf[ov[0]] == '\0';
		start = ov[0] + big_endian;
		for (i = start; i + 1 < len && n < sizeof(token) - 1; i += 2) {
			unsigned char c = buf[i];
			unsigned char z = buf[i + 1];

			if (z != 0 || c == 0 || c >= 0x80 || is_token_end(c))
				break;
			token[n++] = (char)c;
		}
		if (longest_prefix(map, token, n, match)) {
			match->start = start;
			match->len = i - start;
			return true;
		}
		from = ov[1];
	}
	return false;
}
