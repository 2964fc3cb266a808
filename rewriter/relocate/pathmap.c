/*
 * pathmap.c: the old paths a package's files had, and where they went.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "relocate/pathmap.h"

#define PATHMAP_TOPS_MAX 64
#define PATHMAP_TOP_MAX 32
#define PATHMAP_FIRSTS_MAX 4

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
	/* The first components of the old paths, and their first bytes. */
	char tops[PATHMAP_TOPS_MAX][PATHMAP_TOP_MAX];
	size_t toplen[PATHMAP_TOPS_MAX];
	size_t ntops;
	bool first[256];
	/* The same bytes listed, when there are few enough for the
	 * vector search (next_slash); else nfirst is 0. */
	unsigned char firsts[PATHMAP_FIRSTS_MAX];
	int nfirst;
	/* Whether some old path is I bytes long (I <= PATH_MAX): a prefix
	 * of another length is not looked up. */
	bool has_len[PATH_MAX + 1];
};

struct pathmap_scanner {
	const struct pathmap *map;
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

	if (map->nslots == 0 || (len <= PATH_MAX && !map->has_len[len]))
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
	if (len <= PATH_MAX)
		map->has_len[len] = true;
	for (s = e->hash & (map->nslots - 1); map->slots[s];
	     s = (s + 1) & (map->nslots - 1))
		;
	map->slots[s] = ++map->count;
	return 0;
}

/* Gather the distinct first components of the old paths ("usr", "etc"). */
static int
collect_tops(struct pathmap *map)
{
	size_t i, j;

	for (i = 0; i < map->count; i++) {
		const char *old = map->entries[i].old + 1;
		size_t len = strcspn(old, "/");

		if (len == 0 || len > PATHMAP_TOP_MAX)
			continue;
		for (j = 0; j < map->ntops; j++)
			if (map->toplen[j] == len &&
			    memcmp(map->tops[j], old, len) == 0)
				break;
		if (j < map->ntops)
			continue;
		if (map->ntops == PATHMAP_TOPS_MAX)
			return -1;
		memcpy(map->tops[map->ntops], old, len);
		map->toplen[map->ntops++] = len;
		map->first[(unsigned char)old[0]] = true;
	}
	map->nfirst = 0;
	for (i = 0; i < 256; i++) {
		if (!map->first[i])
			continue;
		if (map->nfirst == PATHMAP_FIRSTS_MAX) {
			map->nfirst = 0;
			break;
		}
		map->firsts[map->nfirst++] = (unsigned char)i;
	}
	return 0;
}

int
pathmap_compile(struct pathmap *map, struct dpkg_error *err)
{
	if (collect_tops(map) < 0) {
		dpkg_put_error(err, "more than %d top-level directories moved",
		               PATHMAP_TOPS_MAX);
		return -1;
	}
	return 0;
}

struct pathmap_scanner *
pathmap_scanner_new(const struct pathmap *map)
{
	struct pathmap_scanner *sc = calloc(1, sizeof(*sc));

	if (sc == NULL)
		return NULL;
	sc->map = map;
	return sc;
}

void
pathmap_scanner_free(struct pathmap_scanner *sc)
{
	free(sc);
}

/*
 * The length of the top component at P (a '/'), reading every STRIDE-th
 * byte (2 for UTF-16, whose other bytes must be NUL), or 0.
 */
static size_t
top_at(const struct pathmap *map, const unsigned char *buf, size_t len,
       size_t p, size_t stride)
{
	size_t j, k;

	for (j = 0; j < map->ntops; j++) {
		size_t n = map->toplen[j];

		if (p + stride * (n + 1) > len)
			continue;
		for (k = 0; k < n; k++) {
			size_t at = p + stride * (k + 1);

			if (buf[at] != (unsigned char)map->tops[j][k] ||
			    (stride == 2 && buf[at - 1] != 0))
				break;
		}
		if (k == n)
			return stride * (n + 1);
	}
	return 0;
}

/*
 * The longest old path that TOKEN[0..LEN) starts with, ending at a
 * boundary (the token's end, or a byte that cannot continue a name)
 * unless ANYWHERE.
 */
static bool
longest_prefix(const struct pathmap *map, const char *token, size_t len,
               bool anywhere, struct pathmap_match *match)
{
	size_t i;

	for (i = len; i > 1; i--) {
		const struct pathmap_entry *e;

		if (!anywhere && i < len &&
		    pathmap_is_name_byte((unsigned char)token[i]))
			continue;
		e = lookup_entry(map, token, i);
		if (e != NULL) {
			match->len = i;
			match->old = e->old;
			match->new = e->new;
			match->bounded = i == len ||
			        !pathmap_is_name_byte((unsigned char)token[i]);
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
	return longest_prefix(map, path, strlen(path), false, match);
}

#ifdef __SSE2__
/* Whether the 64 bytes at P hold a slash: most blocks of a binary do
 * not, and are passed over with one test instead of four. */
static inline bool
has_slash64(const unsigned char *p, __m128i slash)
{
	__m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), slash);
	__m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)),
	                           slash);
	__m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)),
	                           slash);
	__m128i d = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)),
	                           slash);

	return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b),
	                                      _mm_or_si128(c, d))) != 0;
}
#endif

/*
 * The offset of the next slash at or after FROM that may start a path of
 * the map: followed by the first byte of a top directory (STRIDE 1), or
 * by NUL and that byte (STRIDE 2, UTF-16); LEN when there is none.  The
 * candidates the callers check one by one.  On a binary, a slash every
 * few hundred bytes is followed by anything: 16 bytes at a time, the
 * slash and the byte after it are tested together, as ripgrep's literal
 * search does, and the callers see only the few real candidates.
 */
static size_t
next_slash(const struct pathmap *map, const unsigned char *buf, size_t len,
           size_t from, size_t stride)
{
#ifdef __SSE2__
	if (map->nfirst > 0) {
		const __m128i slash = _mm_set1_epi8('/');
		const __m128i zero = _mm_setzero_si128();
		__m128i f[PATHMAP_FIRSTS_MAX];
		int k;

		for (k = 0; k < map->nfirst; k++)
			f[k] = _mm_set1_epi8((char)map->firsts[k]);
		for (; from + 16 + stride <= len; from += 16) {
			const unsigned char *p;
			__m128i m, vn, fm;
			unsigned bits;

			while (from + 64 + 16 + stride <= len &&
			       !has_slash64(buf + from, slash))
				from += 64;
			p = buf + from;
			m = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p),
			                   slash);
			if (_mm_movemask_epi8(m) == 0)
				continue;
			vn = _mm_loadu_si128((const __m128i *)(p + stride));
			fm = _mm_cmpeq_epi8(vn, f[0]);
			for (k = 1; k < map->nfirst; k++)
				fm = _mm_or_si128(fm, _mm_cmpeq_epi8(vn, f[k]));
			m = _mm_and_si128(m, fm);
			if (stride == 2)
				m = _mm_and_si128(m, _mm_cmpeq_epi8(
				        _mm_loadu_si128(
				                (const __m128i *)(p + 1)),
				        zero));
			bits = (unsigned)_mm_movemask_epi8(m);
			if (bits != 0)
				return from + (size_t)__builtin_ctz(bits);
		}
	}
#endif
	for (; from < len; from++) {
		const unsigned char *p = memchr(buf + from, '/', len - from);

		if (p == NULL)
			return len;
		from = (size_t)(p - buf);
		if (from + stride < len && map->first[buf[from + stride]] &&
		    (stride == 1 || buf[from + 1] == 0))
			return from;
	}
	return len;
}

/*
 * The offset of the next slash at or after FROM that may start a path of
 * the map in any encoding: followed by the first byte of a top directory,
 * or by NUL and that byte (UTF-16); LEN when there is none.  One pass for
 * what next_slash finds in two.
 */
static size_t
next_candidate(const struct pathmap *map, const unsigned char *buf,
               size_t len, size_t from)
{
#ifdef __SSE2__
	if (map->nfirst > 0) {
		const __m128i slash = _mm_set1_epi8('/');
		const __m128i zero = _mm_setzero_si128();
		__m128i f[PATHMAP_FIRSTS_MAX];
		int k;

		for (k = 0; k < map->nfirst; k++)
			f[k] = _mm_set1_epi8((char)map->firsts[k]);
		for (; from + 18 <= len; from += 16) {
			const unsigned char *p;
			__m128i m, v1, v2, f1, f2;
			unsigned bits;

			while (from + 64 + 18 <= len &&
			       !has_slash64(buf + from, slash))
				from += 64;
			p = buf + from;
			m = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p),
			                   slash);

			if (_mm_movemask_epi8(m) == 0)
				continue;
			v1 = _mm_loadu_si128((const __m128i *)(p + 1));
			v2 = _mm_loadu_si128((const __m128i *)(p + 2));
			f1 = _mm_cmpeq_epi8(v1, f[0]);
			f2 = _mm_cmpeq_epi8(v2, f[0]);
			for (k = 1; k < map->nfirst; k++) {
				f1 = _mm_or_si128(f1, _mm_cmpeq_epi8(v1, f[k]));
				f2 = _mm_or_si128(f2, _mm_cmpeq_epi8(v2, f[k]));
			}
			f2 = _mm_and_si128(f2, _mm_cmpeq_epi8(v1, zero));
			m = _mm_and_si128(m, _mm_or_si128(f1, f2));
			bits = (unsigned)_mm_movemask_epi8(m);
			if (bits != 0)
				return from + (size_t)__builtin_ctz(bits);
		}
	}
#endif
	for (; from < len; from++) {
		const unsigned char *p = memchr(buf + from, '/', len - from);

		if (p == NULL)
			return len;
		from = (size_t)(p - buf);
		if (from + 1 < len && (map->first[buf[from + 1]] ||
		                       (buf[from + 1] == 0 && from + 2 < len &&
		                        map->first[buf[from + 2]])))
			return from;
	}
	return len;
}

/*
 * The next path of the map at or after FROM: at a slash that starts a
 * mapped top directory.  Text (PACKED false) wants the path standing
 * alone: "x/usr" and "/usrx" are not /usr.  Packed strings (Go's) run
 * paths into names on either side: found there too, and reported as not
 * bounded.
 */
static bool
path_at(const struct pathmap *map, const unsigned char *buf, size_t len,
        size_t start, bool packed, struct pathmap_match *match)
{
	size_t top, end;
	bool after_name;

	if (start + 1 >= len || !map->first[buf[start + 1]])
		return false;
	after_name = start > 0 && pathmap_is_name_byte(buf[start - 1]);
	if (after_name && !packed)
		return false;
	top = top_at(map, buf, len, start, 1);
	if (top == 0 || (!packed && start + top < len &&
	                 pathmap_is_name_byte(buf[start + top])))
		return false;
	for (end = start + top; end < len && end - start < PATH_MAX &&
	     !is_token_end(buf[end]); end++)
		;
	if (!longest_prefix(map, (const char *)buf + start, end - start,
	                    packed, match))
		return false;
	match->start = start;
	if (packed)
		match->bounded = match->bounded && !after_name;
	return true;
}

static bool
next_path(const struct pathmap *map, const unsigned char *buf, size_t len,
          size_t from, bool packed, struct pathmap_match *match)
{
	while (from < len && (from = next_slash(map, buf, len, from, 1)) < len) {
		if (path_at(map, buf, len, from, packed, match))
			return true;
		from++;
	}
	return false;
}

bool
pathmap_next(struct pathmap_scanner *sc, const unsigned char *buf,
             size_t len, size_t from, struct pathmap_match *match)
{
	return next_path(sc->map, buf, len, from, false, match);
}

bool
pathmap_next_packed(struct pathmap_scanner *sc, const unsigned char *buf,
                    size_t len, size_t from, struct pathmap_match *match)
{
	return next_path(sc->map, buf, len, from, true, match);
}

/*
 * In UTF-16 an ASCII path reads, from its slash on, as the same bytes in
 * either byte order: "/", NUL, "u", NUL, "s"...  Offsets are the slash's.
 */
/* The UTF-16 path of the map whose slash is at START, if any. */
static bool
utf16_path_at(const struct pathmap *map, const unsigned char *buf,
              size_t len, size_t start, struct pathmap_match *match)
{
	size_t i, n = 0;
	char token[PATH_MAX];

	if (start + 2 >= len || buf[start + 1] != 0 ||
	    !map->first[buf[start + 2]] || top_at(map, buf, len, start, 2) == 0)
		return false;
	for (i = start; i + 1 < len && n < sizeof(token) - 1; i += 2) {
		unsigned char c = buf[i];

		if (buf[i + 1] != 0 || c == 0 || c >= 0x80 || is_token_end(c))
			break;
		token[n++] = (char)c;
	}
	if (!longest_prefix(map, token, n, false, match))
		return false;
	match->start = start;
	match->len = i - start;
	return true;
}

bool
pathmap_next_utf16(struct pathmap_scanner *sc, const unsigned char *buf,
                   size_t len, size_t from, struct pathmap_match *match)
{
	const struct pathmap *map = sc->map;

	while (from < len && (from = next_slash(map, buf, len, from, 2)) < len) {
		if (utf16_path_at(map, buf, len, from, match))
			return true;
		from++;
	}
	return false;
}

bool
pathmap_holds_any(struct pathmap_scanner *sc, const unsigned char *buf,
                  size_t len, bool packed)
{
	const struct pathmap *map = sc->map;
	struct pathmap_match m;
	size_t from = 0;

	while ((from = next_candidate(map, buf, len, from)) < len) {
		if (path_at(map, buf, len, from, packed, &m) ||
		    utf16_path_at(map, buf, len, from, &m))
			return true;
		from++;
	}
	return false;
}
