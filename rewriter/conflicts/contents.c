/*
 * contents.c: read Contents indices as Debian and Ubuntu publish them.
 *
 * One producer thread per file (up to MAX_PRODUCERS) decompresses into
 * large chunks, each ending at a line end; worker threads take the full
 * chunks, parse their lines and hand each entry to their callback.  The
 * threads meet in a small pool of chunks guarded by one mutex: a chunk is
 * free, being filled, full, or being parsed.
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

/* Chunks are 2 MB huge pages where the kernel gives them: a page fault
 * per 4 kB of a chunk's first fill costs about as much as parsing it. */
#define CHUNK_SIZE (4u << 20)
#define HUGE_PAGE (2u << 20)
/* What a chunk holds at most: one byte stays for a last newline. */
#define CHUNK_FILL (CHUNK_SIZE - 1)
#define MAX_PRODUCERS 4
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

struct pipeline {
	const char *const *filenames;
	int nfiles, nproducers;
	bool pkg_ok[256];

	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct chunk *chunks;
	char *chunk_memory;
	/* Stacks of chunk indices: free ones, full ones. */
	unsigned *free, *full;
	unsigned nchunks, nfree, nfull;
	int producing;		/* producers still running */
	bool cancelled;
	struct dpkg_error error;
};

struct worker {
	struct pipeline *p;
	contents_entries_fn *entries;
	void *ctx;
	struct contents_stats stats;
	struct contents_entry batch[BATCH];
	size_t nbatch;
};

/* Record the first error and stop everyone. */
static void
fail_locked(struct pipeline *p, const char *error)
{
	if (p->error.str == NULL)
		dpkg_put_error(&p->error, "%s", error);
	p->cancelled = true;
	pthread_cond_broadcast(&p->changed);
}

/* Wait for a free chunk; NULL when the run was cancelled. */
static struct chunk *
producer_get(struct pipeline *p)
{
	struct chunk *c = NULL;

	pthread_mutex_lock(&p->lock);
	while (p->nfree == 0 && !p->cancelled)
		pthread_cond_wait(&p->changed, &p->lock);
	if (!p->cancelled)
		c = &p->chunks[p->free[--p->nfree]];
	pthread_mutex_unlock(&p->lock);
	return c;
}

static void
producer_put(struct pipeline *p, struct chunk *c)
{
	pthread_mutex_lock(&p->lock);
	p->full[p->nfull++] = c - p->chunks;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* Give back a chunk that was not filled after all. */
static void
producer_unget(struct pipeline *p, struct chunk *c)
{
	pthread_mutex_lock(&p->lock);
	p->free[p->nfree++] = c - p->chunks;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

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
 * Sixteen bytes a multiplication, as wyhash does; the last bytes are read
 * as overlapping words, never past the end.
 */
static inline uint64_t
hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w0, w1;
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
	h = mix(h ^ w0 ^ 0x8ebc6af09c88c6e3ull, w1 ^ 0x589965cc75374cc3ull);
	return mix(h, 0x9e3779b97f4a7c15ull);
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

/* The bytes of W that are '/', each as its high bit: exact (no carry
 * crosses a byte), so a nonzero result means a slash is there. */
static inline uint64_t
slash_bytes(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t x = w ^ 0x2f2f2f2f2f2f2f2full;

	return ~(((x & low7) + low7) | x | low7);
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
emit(struct worker *w, const char *path, size_t len, const char *pkgs,
     size_t pkglen)
{
	struct contents_entry *e = &w->batch[w->nbatch];

	e->path = path;
	e->packages = pkgs;
	e->hash = hash_bytes(path, len);
	e->pathlen = len;
	e->pkglen = pkglen;
	if (++w->nbatch == BATCH)
		flush(w);
}

/* How many bytes A and B share at their start, up to MAX. */
static inline size_t
shared_prefix(const char *a, const char *b, size_t max)
{
	size_t n = 0;

	/* Eight bytes at a time: paths share long prefixes. */
	while (n + 8 <= max) {
		uint64_t x = load64(a + n) ^ load64(b + n);

		if (x != 0) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return n + __builtin_ctzll(x) / 8;
#else
			return n + __builtin_clzll(x) / 8;
#endif
		}
		n += 8;
	}
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

/* Hand on the directories PATH lies in that PREV does not lie in. */
static inline void
directories(struct worker *w, const char *path, size_t len,
            const char *prev, size_t prevlen)
{
	size_t i = shared_prefix(path, prev, len < prevlen ? len : prevlen);
	size_t k;

	/* "a/b/c" after "a/b/x": a/ and a/b/ are the previous line's.  Most
	 * lines add none: look for a slash a word at a time. */
	for (; i + 8 <= len; i += 8)
		if (slash_bytes(load64(path + i)) != 0)
			for (k = i; k < i + 8; k++)
				if (path[k] == '/' && k > 0)
					emit(w, path, k, NULL, 0);
	if (i < len && (len < 8 || slash_bytes(load64(path + len - 8)) != 0))
		for (k = i; k < len; k++)
			if (path[k] == '/' && k > 0)
				emit(w, path, k, NULL, 0);
}

/* Where PATH's last slash is, or 0 when it has none. */
static inline size_t
last_slash(const char *path, size_t len)
{
	size_t i = len;

	for (; i >= 8; i -= 8) {
		uint64_t m = slash_bytes(load64(path + i - 8));

		if (m != 0)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return i - 8 + (63 - __builtin_clzll(m)) / 8;
#else
			return i - 1 - __builtin_ctzll(m) / 8;
#endif
	}
	while (i > 0)
		if (path[--i] == '/')
			return i;
	return 0;
}

/*
 * Parse chunk C, handing on each entry, and each directory not already
 * given for the previous line of the chunk.
 */
static void
consume(const struct chunk *c, const bool *pkg_ok, struct worker *w)
{
	struct contents_stats *stats = &w->stats;
	const char *p = c->data, *end = c->data + c->len;
	const char *prev = "";
	size_t prevlen = 0, prevdir = 0;
	/* The last good line's package list (a nonempty one, checked). */
	struct line l = { NULL, "", 0, 0 };

	if (c->first) {
		const char *h = header_end(p, c->len);

		if (h != NULL) {
			p = h;
			stats->headers++;
		}
	}
	while (p < end) {
		bool nul = false;
		const char *nl = next_line_end(p, end, &nul);
		struct line last = l;

		stats->lines++;
		if (nl == p) {
			p++;
			continue;
		}
		/* A parsed line is its path, blanks and a package list,
		 * which holds no NUL: a NUL in the line is one in the path. */
		if (!parse_line(p, nl - p, pkg_ok, &l) || nul) {
			l = last;
			stats->bad_lines++;
		} else {
			size_t dir = last_slash(l.path, l.pathlen);

			stats->entries++;
			/* Most lines lie in the previous line's directory. */
			if (dir != prevdir || !same_bytes(l.path, prev, dir))
				directories(w, l.path, l.pathlen, prev,
				            prevlen);
			prevdir = dir;
			emit(w, l.path, l.pathlen, l.packages, l.pkglen);
			prev = l.path;
			prevlen = l.pathlen;
		}
		p = nl + 1;
	}
	flush(w);
}

/*
 * Fill chunks from file I: each chunk ends after its last newline; the
 * rest starts the next one.  Returns an error message or NULL.
 */
static const char *
produce_file(struct pipeline *p, int i, char *carry,
             struct dpkg_error *err)
{
	const char *filename = p->filenames[i];
	int fd = open(filename, O_RDONLY | O_CLOEXEC);
	struct decompress *z;
	char magic[8];
	ssize_t nmagic;
	size_t ncarry = 0;
	bool first = true, eof = false;
	const char *error = NULL;

	if (fd < 0) {
		dpkg_put_errno(err, "%s: cannot open", filename);
		return err->str;
	}
	/* Contents files come as the mirror compressed them, and named as
	 * whoever downloaded them chose: their magic number tells. */
	nmagic = pread(fd, magic, sizeof(magic), 0);
	z = decompress_new(decompress_type_sniff(magic, nmagic < 0 ? 0 :
	                                         nmagic), fd, -1, filename);
	while (error == NULL && !eof) {
		struct chunk *c = producer_get(p);
		char *nl;

		if (c == NULL)
			break;
		memcpy(c->data, carry, ncarry);
		c->len = ncarry;
		ncarry = 0;
		while (c->len < CHUNK_FILL) {
			ssize_t n = decompress_read(z, c->data + c->len,
			                            CHUNK_FILL - c->len, err);

			if (n < 0) {
				error = err->str;
				break;
			}
			if (n == 0) {
				eof = true;
				break;
			}
			c->len += n;
		}
		if (error) {
			producer_unget(p, c);
			break;
		}
		nl = memrchr(c->data, '\n', c->len);
		if (eof) {
			/* A last line without its newline still counts; the
			 * loop stops before a full chunk sees the end. */
			if (c->len > 0 && c->data[c->len - 1] != '\n')
				c->data[c->len++] = '\n';
		} else if (nl == NULL) {
			dpkg_put_error(err, "%s: a line longer than %u "
			               "bytes", filename, CHUNK_FILL);
			error = err->str;
			producer_unget(p, c);
			break;
		} else {
			ncarry = c->len - (nl + 1 - c->data);
			memcpy(carry, nl + 1, ncarry);
			c->len = nl + 1 - c->data;
		}
		c->first = first;
		first = false;
		if (c->len > 0)
			producer_put(p, c);
		else
			producer_unget(p, c);
	}
	decompress_free(z);
	close(fd);
	return error;
}

struct producer_arg {
	struct pipeline *p;
	int first;	/* files first, first + nproducers, ... */
};

static void *
producer(void *arg)
{
	struct producer_arg *pa = arg;
	struct pipeline *p = pa->p;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *carry = malloc(CHUNK_FILL);
	const char *error = NULL;
	int i;

	if (carry == NULL)
		abort();
	for (i = pa->first; i < p->nfiles && error == NULL;
	     i += p->nproducers)
		error = produce_file(p, i, carry, &err);
	free(carry);
	pthread_mutex_lock(&p->lock);
	if (error)
		fail_locked(p, error);
	p->producing--;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	dpkg_error_destroy(&err);
	return NULL;
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct pipeline *p = w->p;

	for (;;) {
		unsigned i;

		pthread_mutex_lock(&p->lock);
		while (p->nfull == 0 && p->producing > 0 && !p->cancelled)
			pthread_cond_wait(&p->changed, &p->lock);
		if (p->nfull == 0 || p->cancelled) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		i = p->full[--p->nfull];
		pthread_mutex_unlock(&p->lock);

		consume(&p->chunks[i], p->pkg_ok, w);

		pthread_mutex_lock(&p->lock);
		p->free[p->nfree++] = i;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
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
	struct producer_arg pargs[MAX_PRODUCERS];
	pthread_t producers[MAX_PRODUCERS], workers[MAX_WORKERS];
	struct worker *w = calloc(MAX_WORKERS, sizeof(*w));
	unsigned i;
	int ret = 0, k;

	if (nworkers < 1)
		nworkers = 1;
	if (nworkers > MAX_WORKERS)
		nworkers = MAX_WORKERS;
	memset(&p, 0, sizeof(p));
	package_list_bytes(p.pkg_ok);
	p.filenames = filenames;
	p.nfiles = nfiles;
	p.nproducers = nfiles < MAX_PRODUCERS ? nfiles : MAX_PRODUCERS;
	p.producing = p.nproducers;
	p.nchunks = p.nproducers + nworkers + 2;
	p.chunks = calloc(p.nchunks, sizeof(*p.chunks));
	p.free = calloc(p.nchunks, sizeof(*p.free));
	p.full = calloc(p.nchunks, sizeof(*p.full));
	if (p.chunks == NULL || p.free == NULL || p.full == NULL || w == NULL)
		abort();
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	p.chunk_memory = aligned_alloc(HUGE_PAGE, (size_t)p.nchunks *
	                               CHUNK_SIZE);
	if (p.chunk_memory == NULL)
		abort();
	madvise(p.chunk_memory, (size_t)p.nchunks * CHUNK_SIZE,
	        MADV_HUGEPAGE);
	for (i = 0; i < p.nchunks; i++) {
		p.chunks[i].data = p.chunk_memory + (size_t)i * CHUNK_SIZE;
		p.free[p.nfree++] = i;
	}
	for (k = 0; k < p.nproducers; k++) {
		pargs[k].p = &p;
		pargs[k].first = k;
		if (pthread_create(&producers[k], NULL, producer,
		                   &pargs[k]) != 0)
			abort();
	}
	for (k = 0; k < nworkers; k++) {
		memset(&w[k], 0, sizeof(w[k]));
		w[k].p = &p;
		w[k].entries = entries;
		w[k].ctx = ctx[k];
		if (pthread_create(&workers[k], NULL, work, &w[k]) != 0)
			abort();
	}
	for (k = 0; k < p.nproducers; k++)
		pthread_join(producers[k], NULL);
	for (k = 0; k < nworkers; k++) {
		pthread_join(workers[k], NULL);
		stats->lines += w[k].stats.lines;
		stats->entries += w[k].stats.entries;
		stats->bad_lines += w[k].stats.bad_lines;
		stats->headers += w[k].stats.headers;
	}
	if (p.error.str != NULL) {
		dpkg_error_move(err, &p.error);
		ret = -1;
	}
	free(p.chunk_memory);
	free(p.chunks);
	free(p.free);
	free(p.full);
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
	return hash_bytes(s, len);
}

const char *
contents_item_package(const char *item, size_t len, size_t *namelen)
{
	const char *slash = memrchr(item, '/', len);
	const char *name = slash ? slash + 1 : item;

	*namelen = item + len - name;
	return name;
}
