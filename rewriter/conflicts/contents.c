/*
 * contents.c: read Contents indices as Debian and Ubuntu publish them.
 *
 * Each worker thread takes turns: it decompresses the next large chunk
 * of a file whose decompressor no other worker is using, the chunk ending
 * at a line end, lets go of the decompressor, and parses the chunk,
 * handing each entry to its callback.  A file is read in order, one chunk
 * at a time, but while one worker reads, the others parse: no thread
 * waits for another to hand it work, and no processor stands idle while
 * a thread that only decompresses shares another with a parser.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/decompress.h"
#include "conflicts/contents.h"

/* Chunks are 2 MB huge pages where the kernel gives them (see work()). */
#define CHUNK_SIZE (4u << 20)
#define HUGE_PAGE (2u << 20)
/* What a chunk holds at most: one byte stays for a last newline, and the
 * rest lets the parser load a vector that starts before the chunk's end
 * (its last newline stops every scan) and ends past it. */
#define CHUNK_SLACK 64
#define CHUNK_FILL (CHUNK_SIZE - CHUNK_SLACK)
#define MAX_WORKERS 16
/* Entries handed on at a time. */
#define BATCH 256
/* The old header is about 30 lines; look no further for its end. */
#define HEADER_SCAN_LINES 200

struct chunk {
	char *data;	/* CHUNK_SIZE bytes */
	size_t len;
	/* The first chunk of a file: it may start with the old header. */
	bool first;
};

/* A file being read: one worker at a time uses its decompressor. */
struct source {
	const char *filename;
	int fd;
	struct decompress *z;
	/* The start of a line the last chunk cut (CHUNK_FILL bytes). */
	char *carry;
	size_t ncarry;
	bool opened, busy, done;
};

struct pipeline {
	struct source *sources;
	int nfiles;
	bool pkg_ok[256];

	pthread_mutex_t lock;
	pthread_cond_t changed;	/* a decompressor was let go */
	bool cancelled;
	struct dpkg_error error;
};

/* A directory of the previous path: where its name ends in the path, and
 * the hash state after its last component (see contents_hash()). */
struct dir {
	uint64_t state;
	size_t end;
};

struct worker {
	struct pipeline *p;
	contents_entries_fn *entries;
	void *ctx;
	struct contents_stats stats;
	struct contents_entry batch[BATCH];
	size_t nbatch;
	/* The previous path's directories, outermost first. */
	struct dir *dirs;
	size_t ndirs, dircap;
	/* Where the slashes of the path being parsed lie. */
	size_t *slashes;
	size_t slashcap;
};

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline uint64_t
load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t
load32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t
mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/*
 * A path's hash is chained over its components, so that a path in the
 * previous line's directory costs the hash of its last name only: the
 * state starts at HASH_SEED, each component (the bytes between slashes)
 * moves it on, and the hash of a path, or of a directory, is its state
 * mixed once more (hash_final()).
 */
#define HASH_SEED 0x9e3779b97f4a7c15ull

/*
 * Sixteen bytes a multiplication, as wyhash does; the last bytes are read
 * as overlapping words, never past the end.
 */
static inline uint64_t
hash_component(uint64_t state, const char *s, size_t len)
{
	uint64_t h = state ^ len, w0, w1;
	const char *end = s + len;

	if (len > 16) {
		do {
			h = mix(h ^ load64(s) ^ 0xa0761d6478bd642full,
			        load64(s + 8) ^ 0xe7037ed1a0b428dbull);
			s += 16;
		} while (end - s > 16);
		w0 = load64(end - 16);
		w1 = load64(end - 8);
	} else if (len >= 8) {
		w0 = load64(s);
		w1 = load64(end - 8);
	} else if (len >= 4) {
		w0 = load32(s);
		w1 = load32(end - 4);
	} else if (len > 0) {
		w0 = (uint64_t)(unsigned char)s[0] << 16 |
		     (uint64_t)(unsigned char)s[len / 2] << 8 |
		     (unsigned char)s[len - 1];
		w1 = 0;
	} else {
		w0 = w1 = 0;
	}
	return mix(h ^ w0 ^ 0x8ebc6af09c88c6e3ull, w1 ^ 0x589965cc75374cc3ull);
}

static inline uint64_t
hash_final(uint64_t state)
{
	return mix(state, 0x9e3779b97f4a7c15ull);
}

/*
 * Whether the N bytes at A and B are the same.  Package lists and path
 * prefixes are short: words compared in line beat a call to memcmp().
 */
static inline bool
same_bytes(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8)
			if (load64(a + i) != load64(b + i))
				return false;
		return load64(a + n - 8) == load64(b + n - 8);
	}
	if (n >= 4)
		return load32(a) == load32(b) &&
		       load32(a + n - 4) == load32(b + n - 4);
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Bytes package lists may hold: names, sections, separators. */
static void
package_list_bytes(bool ok[256])
{
	int c;

	memset(ok, 0, 256 * sizeof(*ok));
	for (c = 'a'; c <= 'z'; c++)
		ok[c] = true;
	for (c = '0'; c <= '9'; c++)
		ok[c] = true;
	ok['+'] = ok['-'] = ok['.'] = ok['/'] = ok[','] = true;
}

/* A line that fits: its path (relative) and package list. */
struct line {
	const char *path, *packages;
	size_t pathlen, pkglen;
};

/*
 * Parse one line (without its newline); false when it does not fit.  L
 * holds the previous line's package list: most lines end in the same one,
 * already checked, so that is tried first, and then L keeps pointing at
 * the first line of the run (its entries share one PACKAGES pointer).
 */
static inline bool
parse_line(const char *line, size_t len, const bool *pkg_ok, struct line *l)
{
	const char *end = line + len, *pkgs, *p;

	if (l->pkglen > 0 && l->pkglen < len &&
	    is_blank(end[-(ptrdiff_t)l->pkglen - 1]) &&
	    same_bytes(end - l->pkglen, l->packages, l->pkglen)) {
		pkgs = end - l->pkglen;
	} else {
		while (end > line && is_blank(end[-1]))
			end--;
		pkgs = end;
		while (pkgs > line && !is_blank(pkgs[-1]))
			pkgs--;
		if (pkgs == end || pkgs == line)
			return false;
		for (p = pkgs; p < end; p++)
			if (!pkg_ok[(unsigned char)*p])
				return false;
		if (pkgs[0] == ',' || end[-1] == ',' || pkgs[0] == '/')
			return false;
		l->packages = pkgs;
		l->pkglen = end - pkgs;
	}
	p = pkgs;
	/* Columns are padded with spaces: skip them a word at a time, and
	 * the last ones by counting the word's spaces at its end. */
	while (p - line >= 8) {
		uint64_t x = load64(p - 8) ^ 0x2020202020202020ull;

		if (x != 0) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			p -= __builtin_clzll(x) / 8;
#else
			p -= __builtin_ctzll(x) / 8;
#endif
			break;
		}
		p -= 8;
	}
	while (p > line && is_blank(p[-1]))
		p--;
	while (line < p && *line == '/')
		line++;
	if (p - line >= 2 && line[0] == '.' && line[1] == '/')
		line += 2;
	if (p == line)
		return false;
	l->path = line;
	l->pathlen = p - line;
	return true;
}

/* The line after the old header's "FILE  LOCATION" line, or NULL. */
static const char *
header_end(const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	int n;

	for (n = 0; n < HEADER_SCAN_LINES && p < end; n++) {
		const char *nl = memchr(p, '\n', end - p);
		const char *q = p + 4;

		if (nl == NULL)
			return NULL;
		if (nl - p > 12 && memcmp(p, "FILE", 4) == 0 && is_blank(*q)) {
			while (q < nl && is_blank(*q))
				q++;
			if (nl - q >= 8 && memcmp(q, "LOCATION", 8) == 0) {
				q += 8;
				while (q < nl && is_blank(*q))
					q++;
				if (q == nl)
					return nl + 1;
			}
		}
		p = nl + 1;
	}
	return NULL;
}

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The next newline from P (the chunk ends in one), and whether a NUL lies
 * before it: no path holds one, so its line is bad.  One pass looks for
 * both.
 */
static inline const char *
next_line_end(const char *p, const char *end, bool *nul)
{
	const char *nl;

#ifdef __SSE2__
	const __m128i newline = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	for (; end - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		unsigned m = _mm_movemask_epi8(_mm_or_si128(
			_mm_cmpeq_epi8(v, newline), _mm_cmpeq_epi8(v, zero)));

		if (m != 0) {
			p += __builtin_ctz(m);
			if (*p == '\n')
				return p;
			break;
		}
	}
#endif
	nl = memchr(p, '\n', end - p);
	if (memchr(p, '\0', nl - p) != NULL)
		*nul = true;
	return nl;
}

/* Hand on the worker's batch. */
static void
flush(struct worker *w)
{
	if (w->nbatch > 0)
		w->entries(w->ctx, w->batch, w->nbatch);
	w->nbatch = 0;
}

static inline void
emit(struct worker *w, const char *path, size_t len, uint64_t hash,
     const char *pkgs, size_t pkglen)
{
	struct contents_entry *e = &w->batch[w->nbatch];

	e->path = path;
	e->packages = pkgs;
	e->hash = hash;
	e->pathlen = len;
	e->pkglen = pkglen;
	if (++w->nbatch == BATCH)
		flush(w);
}

/*
 * The scans below look at 64 bytes at once, with no branch within them:
 * which of a line's vectors holds what they look for varies from line to
 * line, and a mispredicted branch per vector cost more than the vectors.
 * A line starts at most a vector before the chunk's last newline, and
 * CHUNK_SLACK holds what lies past it.
 */
#ifdef __SSE2__
/* One bit per byte of the four vectors, the first lowest. */
static inline uint64_t
mask64(__m128i v0, __m128i v1, __m128i v2, __m128i v3)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(v0) |
	       (uint64_t)(unsigned)_mm_movemask_epi8(v1) << 16 |
	       (uint64_t)(unsigned)_mm_movemask_epi8(v2) << 32 |
	       (uint64_t)(unsigned)_mm_movemask_epi8(v3) << 48;
}

static inline __m128i
load16(const char *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

/* The bytes at P equal to those at Q. */
static inline uint64_t
same64(const char *p, const char *q)
{
	return mask64(_mm_cmpeq_epi8(load16(p), load16(q)),
	              _mm_cmpeq_epi8(load16(p + 16), load16(q + 16)),
	              _mm_cmpeq_epi8(load16(p + 32), load16(q + 32)),
	              _mm_cmpeq_epi8(load16(p + 48), load16(q + 48)));
}

/* A slash, or a byte up to the space: blank, newline, NUL, control. */
static inline __m128i
stop16(__m128i v)
{
	return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
	                    _mm_cmpeq_epi8(_mm_min_epu8(v,
	                                   _mm_set1_epi8(' ')), v));
}

static inline __m128i
blank16(__m128i v)
{
	return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
	                    _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
}
#endif

/* How many bytes A and B share at their start, up to MAX. */
static inline size_t
shared_prefix(const char *a, const char *b, size_t max)
{
	size_t n = 0;

#ifdef __SSE2__
	for (;; n += 64) {
		uint64_t differ = ~same64(a + n, b + n);

		if (max - n < 64)
			differ |= ~0ull << (max - n);
		if (differ != 0)
			return n + __builtin_ctzll(differ);
	}
#else
	while (n < max && a[n] == b[n])
		n++;
	return n;
#endif
}

/*
 * The first byte from P that may end a name in a path: a slash, a blank,
 * a newline, a NUL or another control character.  The line's newline
 * stops the scan.
 */
static inline const char *
next_stop(const char *p)
{
#ifdef __SSE2__
	for (;; p += 64) {
		uint64_t m = mask64(stop16(load16(p)), stop16(load16(p + 16)),
		                    stop16(load16(p + 32)),
		                    stop16(load16(p + 48)));

		if (m != 0)
			return p + __builtin_ctzll(m);
	}
#else
	while (*p != '/' && (unsigned char)*p > ' ')
		p++;
	return p;
#endif
}

/* The first byte from P that is neither a space nor a tab: columns are
 * padded with them.  As next_stop(), the newline stops it. */
static inline const char *
skip_blanks(const char *p)
{
#ifdef __SSE2__
	for (;; p += 64) {
		uint64_t m = ~mask64(blank16(load16(p)), blank16(load16(p + 16)),
		                     blank16(load16(p + 32)),
		                     blank16(load16(p + 48)));

		if (m != 0)
			return p + __builtin_ctzll(m);
	}
#else
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
#endif
}

static void
grow_slashes(struct worker *w)
{
	w->slashcap = w->slashcap ? w->slashcap * 2 : 64;
	w->slashes = realloc(w->slashes, w->slashcap * sizeof(*w->slashes));
	if (w->slashes == NULL)
		abort();
}

static inline void
add_slash(struct worker *w, size_t n, size_t at)
{
	if (n == w->slashcap)
		grow_slashes(w);
	w->slashes[n] = at;
}

/*
 * Parse the line at P the quick way, as most lines are: from FROM, the
 * path holds no blank and no control character, and blanks, a package
 * list and the newline follow it.  Each slash from FROM goes to
 * W->slashes.  The list is L's when it is the same bytes, else it is
 * checked and kept in L.  Returns the newline, or NULL when the line is
 * not of that form (parse_line() then decides).
 */
static inline const char *
quick_line(struct worker *w, const char *p, size_t from, const char *end,
           const bool *pkg_ok, struct line *l, size_t *pathlen,
           size_t *nslashes)
{
	const char *q = p + from, *t, *u;
	size_t n = 0;

	for (;;) {
		q = next_stop(q);
		if (*q != '/')
			break;
		add_slash(w, n++, q - p);
		q++;
	}
	if (q == p || (*q != ' ' && *q != '\t'))
		return NULL;
	t = skip_blanks(q);
	if (l->pkglen > 0 && (size_t)(end - t) > l->pkglen &&
	    t[l->pkglen] == '\n' && same_bytes(t, l->packages, l->pkglen)) {
		u = t + l->pkglen;
	} else {
		for (u = t; pkg_ok[(unsigned char)*u]; u++)
			continue;
		if (*u != '\n' || u == t || t[0] == ',' || u[-1] == ',' ||
		    t[0] == '/')
			return NULL;
		l->packages = t;
		l->pkglen = u - t;
	}
	*pathlen = q - p;
	*nslashes = n;
	return u;
}

/* How many of the previous path's directories PATH lies in, given the
 * bytes they share. */
static inline size_t
shared_dirs(const struct worker *w, size_t shared)
{
	size_t depth = w->ndirs;

	while (depth > 0 && w->dirs[depth - 1].end >= shared)
		depth--;
	return depth;
}

/*
 * Hand on the path's directories from DEPTH on (their ends in
 * W->slashes), then the path, hashing each name once; keep its
 * directories for the next line.
 */
static inline void
emit_path(struct worker *w, const char *path, size_t pathlen, size_t depth,
          size_t nslashes, const struct line *l)
{
	uint64_t state = depth > 0 ? w->dirs[depth - 1].state : HASH_SEED;
	size_t from = depth > 0 ? w->dirs[depth - 1].end + 1 : 0, i;

	for (i = 0; i < nslashes; i++) {
		size_t end = w->slashes[i];

		state = hash_component(state, path + from, end - from);
		if (depth == w->dircap) {
			w->dircap = w->dircap ? w->dircap * 2 : 64;
			w->dirs = realloc(w->dirs,
			                  w->dircap * sizeof(*w->dirs));
			if (w->dirs == NULL)
				abort();
		}
		w->dirs[depth].state = state;
		w->dirs[depth++].end = end;
		/* "./" goes before a path, and "/" after it is left: the
		 * root is no directory of the index. */
		if (end > 0)
			emit(w, path, end, hash_final(state), NULL, 0);
		from = end + 1;
	}
	w->ndirs = depth;
	state = hash_component(state, path + from, pathlen - from);
	emit(w, path, pathlen, hash_final(state), l->packages, l->pkglen);
}

/* How far ahead of the line being parsed to prefetch: some sixteen lines,
 * as measured in make bench (512 or 4096 do not do as well). */
#define PREFETCH 1536

/*
 * Parse chunk C, handing on each entry, and each directory its path lies
 * in that the previous line's does not.  Contents files are sorted: most
 * paths share the previous one's directories, whose names are then
 * neither looked at nor hashed again.
 */
static void
consume(const struct chunk *c, const bool *pkg_ok, struct worker *w)
{
	struct contents_stats *stats = &w->stats;
	const char *p = c->data, *end = c->data + c->len;
	/* Before the first line, a previous path of no bytes, which the scans
	 * may read 64 bytes of. */
	static const char no_path[64];
	const char *prev = no_path;
	size_t prevlen = 0;
	/* The last good line's package list (a nonempty one, checked). */
	struct line l = { NULL, "", 0, 0 };

	w->ndirs = 0;
	if (c->first) {
		const char *h = header_end(p, c->len);

		if (h != NULL) {
			p = h;
			stats->headers++;
		}
	}
	while (p < end) {
		const char *path = p, *nl = NULL;
		size_t max = (size_t)(end - p) < prevlen ? (size_t)(end - p) :
		             prevlen;
		size_t depth = shared_dirs(w, shared_prefix(p, prev, max));
		size_t from = depth > 0 ? w->dirs[depth - 1].end + 1 : 0;
		size_t pathlen = 0, nslashes = 0;

		/* The lines are read at the pace of a chain of dependent
		 * steps: ask for the bytes some lines ahead meanwhile. */
		__builtin_prefetch(p + PREFETCH);
		stats->lines++;
		if (*p == '\n') {
			p++;
			continue;
		}
		if (p[0] != '/' && !(p[0] == '.' && p[1] == '/'))
			nl = quick_line(w, p, from, end, pkg_ok, &l, &pathlen,
			                &nslashes);
		if (nl == NULL) {
			/* Blanks in the path, a leading "/" or "./",
			 * trailing blanks, a bad line. */
			struct line last = l;
			bool nul = false;
			const char *s;

			nl = next_line_end(p, end, &nul);
			if (!parse_line(p, nl - p, pkg_ok, &l) || nul) {
				l = last;
				stats->bad_lines++;
				p = nl + 1;
				continue;
			}
			path = l.path;
			pathlen = l.pathlen;
			depth = shared_dirs(w, shared_prefix(path, prev,
			        pathlen < prevlen ? pathlen : prevlen));
			from = depth > 0 ? w->dirs[depth - 1].end + 1 : 0;
			for (s = path + from;
			     (s = memchr(s, '/', path + pathlen - s)) != NULL;
			     s++)
				add_slash(w, nslashes++, s - path);
		}
		stats->entries++;
		emit_path(w, path, pathlen, depth, nslashes, &l);
		prev = path;
		prevlen = pathlen;
		p = nl + 1;
	}
	flush(w);
}

/*
 * Fill chunk C with the next lines of S: it starts with what the last
 * chunk cut, and ends after its last newline.  *LAST says whether S has
 * no more (or failed).  Returns an error message or NULL.
 */
static const char *
fill_chunk(struct source *s, struct chunk *c, bool *last,
           struct dpkg_error *err)
{
	bool eof = false;
	char *nl;

	c->len = 0;
	c->first = !s->opened;
	*last = false;
	if (!s->opened) {
		char magic[8];
		ssize_t nmagic;

		s->opened = true;
		s->fd = open(s->filename, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			*last = true;
			dpkg_put_errno(err, "%s: cannot open", s->filename);
			return err->str;
		}
		s->carry = malloc(CHUNK_FILL);
		if (s->carry == NULL)
			abort();
		/* Contents files come as the mirror compressed them, and
		 * named as whoever downloaded them chose: their magic
		 * number tells. */
		nmagic = pread(s->fd, magic, sizeof(magic), 0);
		s->z = decompress_new(decompress_type_sniff(magic, nmagic < 0 ?
		                                            0 : nmagic),
		                      s->fd, -1, s->filename);
	}
	memcpy(c->data, s->carry, s->ncarry);
	c->len = s->ncarry;
	s->ncarry = 0;
	while (c->len < CHUNK_FILL) {
		ssize_t n = decompress_read(s->z, c->data + c->len,
		                            CHUNK_FILL - c->len, err);

		if (n < 0) {
			*last = true;
			return err->str;
		}
		if (n == 0) {
			eof = true;
			break;
		}
		c->len += n;
	}
	nl = memrchr(c->data, '\n', c->len);
	if (eof) {
		/* A last line without its newline still counts; the loop
		 * stops before a full chunk sees the end. */
		if (c->len > 0 && c->data[c->len - 1] != '\n')
			c->data[c->len++] = '\n';
		*last = true;
	} else if (nl == NULL) {
		*last = true;
		dpkg_put_error(err, "%s: a line longer than %u bytes",
		               s->filename, CHUNK_FILL);
		return err->str;
	} else {
		s->ncarry = c->len - (nl + 1 - c->data);
		memcpy(s->carry, nl + 1, s->ncarry);
		c->len = nl + 1 - c->data;
	}
	return NULL;
}

static void
close_source(struct source *s)
{
	if (s->z != NULL)
		decompress_free(s->z);
	if (s->fd >= 0)
		close(s->fd);
	free(s->carry);
	s->z = NULL;
	s->fd = -1;
	s->carry = NULL;
}

/* A file with lines left whose decompressor is free; NULL when there is
 * none, and then *LEFT says whether any has lines left. */
static struct source *
free_source(struct pipeline *p, bool *left)
{
	int i;

	*left = false;
	for (i = 0; i < p->nfiles; i++) {
		struct source *s = &p->sources[i];

		if (s->done)
			continue;
		*left = true;
		if (!s->busy)
			return s;
	}
	return NULL;
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct pipeline *p = w->p;
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct chunk c;

	c.data = aligned_alloc(HUGE_PAGE, CHUNK_SIZE);
	if (c.data == NULL)
		abort();
	/* A page fault per 4 kB of a chunk's first fill costs about as
	 * much as parsing it. */
	madvise(c.data, CHUNK_SIZE, MADV_HUGEPAGE);
	for (;;) {
		struct source *s = NULL;
		const char *error;
		bool left = true, last;

		pthread_mutex_lock(&p->lock);
		while (!p->cancelled && (s = free_source(p, &left)) == NULL &&
		       left)
			pthread_cond_wait(&p->changed, &p->lock);
		if (p->cancelled)
			s = NULL;
		if (s != NULL)
			s->busy = true;
		pthread_mutex_unlock(&p->lock);
		if (s == NULL)
			break;

		error = fill_chunk(s, &c, &last, &err);
		if (last)
			close_source(s);

		pthread_mutex_lock(&p->lock);
		s->busy = false;
		s->done = last;
		if (error != NULL && p->error.str == NULL)
			dpkg_put_error(&p->error, "%s", error);
		if (error != NULL)
			p->cancelled = true;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		if (error != NULL)
			break;

		if (c.len > 0)
			consume(&c, p->pkg_ok, w);
	}
	free(c.data);
	dpkg_error_destroy(&err);
	return NULL;
}

int
contents_workers(int max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (max > MAX_WORKERS)
		max = MAX_WORKERS;
	return n < 1 ? 1 : n > max ? max : (int)n;
}

int
contents_read_entries(const char *const *filenames, int nfiles, int nworkers,
                      contents_entries_fn *entries, void *const *ctx,
                      struct contents_stats *stats, struct dpkg_error *err)
{
	struct pipeline p;
	pthread_t workers[MAX_WORKERS];
	struct worker *w = calloc(MAX_WORKERS, sizeof(*w));
	int ret = 0, k;

	if (nworkers < 1)
		nworkers = 1;
	if (nworkers > MAX_WORKERS)
		nworkers = MAX_WORKERS;
	memset(&p, 0, sizeof(p));
	package_list_bytes(p.pkg_ok);
	p.nfiles = nfiles;
	p.sources = calloc(nfiles > 0 ? nfiles : 1, sizeof(*p.sources));
	if (p.sources == NULL || w == NULL)
		abort();
	for (k = 0; k < nfiles; k++) {
		p.sources[k].filename = filenames[k];
		p.sources[k].fd = -1;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	for (k = 0; k < nworkers; k++) {
		w[k].p = &p;
		w[k].entries = entries;
		w[k].ctx = ctx[k];
		if (pthread_create(&workers[k], NULL, work, &w[k]) != 0)
			abort();
	}
	for (k = 0; k < nworkers; k++) {
		pthread_join(workers[k], NULL);
		stats->lines += w[k].stats.lines;
		stats->entries += w[k].stats.entries;
		stats->bad_lines += w[k].stats.bad_lines;
		stats->headers += w[k].stats.headers;
		free(w[k].dirs);
		free(w[k].slashes);
	}
	if (p.error.str != NULL) {
		dpkg_error_move(err, &p.error);
		ret = -1;
	}
	/* Those a failure left open. */
	for (k = 0; k < nfiles; k++)
		close_source(&p.sources[k]);
	free(p.sources);
	free(w);
	pthread_cond_destroy(&p.changed);
	pthread_mutex_destroy(&p.lock);
	return ret;
}

/* contents_read()'s callback, one entry at a time. */
struct each {
	contents_entry_fn *entry;
	void *ctx;
};

static void
each_entry(void *ctx, const struct contents_entry *e, size_t n)
{
	const struct each *each = ctx;
	size_t i;

	for (i = 0; i < n; i++)
		each->entry(each->ctx, e[i].path, e[i].pathlen, e[i].hash,
		            e[i].packages, e[i].pkglen);
}

int
contents_read(const char *const *filenames, int nfiles, int nworkers,
              contents_entry_fn *entry, void *const *ctx,
              struct contents_stats *stats, struct dpkg_error *err)
{
	struct each each[MAX_WORKERS];
	void *each_ctx[MAX_WORKERS];
	int k;

	if (nworkers < 1)
		nworkers = 1;
	if (nworkers > MAX_WORKERS)
		nworkers = MAX_WORKERS;
	for (k = 0; k < nworkers; k++) {
		each[k].entry = entry;
		each[k].ctx = ctx[k];
		each_ctx[k] = &each[k];
	}
	return contents_read_entries(filenames, nfiles, nworkers, each_entry,
	                             each_ctx, stats, err);
}

uint64_t
contents_hash(const char *s, size_t len)
{
	const char *end = s + len, *slash;
	uint64_t state = HASH_SEED;

	while ((slash = memchr(s, '/', end - s)) != NULL) {
		state = hash_component(state, s, slash - s);
		s = slash + 1;
	}
	return hash_final(hash_component(state, s, end - s));
}

uint64_t
contents_string_hash(const char *s, size_t len)
{
	return hash_final(hash_component(HASH_SEED, s, len));
}

const char *
contents_item_package(const char *item, size_t len, size_t *namelen)
{
	const char *slash = memrchr(item, '/', len);
	const char *name = slash ? slash + 1 : item;

	*namelen = item + len - name;
	return name;
}
