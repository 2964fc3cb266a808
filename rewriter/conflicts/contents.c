/*
 * contents.c: read Contents indices as Debian and Ubuntu publish them.
 *
 * A reader thread decompresses into a few large buffers, each ending at a
 * line end; the caller's thread parses their lines and hands what it keeps
 * to its callback.  The two meet in a small queue guarded by one mutex.
 * Since the index keeps only the paths contents-exports.h allows (few),
 * parsing is a scan of each line's end for its package list, about as
 * costly as decompressing: each thread does one.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "conflicts/contents-exports.h"
#include "conflicts/contents.h"

#define CHUNK_SIZE (4u << 20)
#define NCHUNKS 4
/* The old header is about 30 lines; look no further for its end. */
#define HEADER_SCAN_LINES 200

struct chunk {
	char *data;
	size_t len;
	/* The first chunk of a file: it may start with the old header. */
	bool first;
};

struct pipeline {
	const char *const *filenames;
	int nfiles;
	bool pkg_ok[256];

	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct chunk chunks[NCHUNKS];
	unsigned head, tail;	/* filled: [head, tail) modulo NCHUNKS */
	bool done, cancelled;
	char error[1024];
};

static const char *
archive_reason(struct archive *a)
{
	const char *s = archive_error_string(a);

	return s ? s : "unknown error";
}

/* Wait for a free chunk; NULL when the parser gave up. */
static struct chunk *
producer_get(struct pipeline *p)
{
	struct chunk *c = NULL;

	pthread_mutex_lock(&p->lock);
	while (p->tail - p->head == NCHUNKS && !p->cancelled)
		pthread_cond_wait(&p->changed, &p->lock);
	if (!p->cancelled)
		c = &p->chunks[p->tail % NCHUNKS];
	pthread_mutex_unlock(&p->lock);
	return c;
}

static void
producer_put(struct pipeline *p)
{
	pthread_mutex_lock(&p->lock);
	p->tail++;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

static void
producer_finish(struct pipeline *p, const char *error)
{
	pthread_mutex_lock(&p->lock);
	if (error)
		snprintf(p->error, sizeof(p->error), "%s", error);
	p->done = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Bytes a package list may hold: names, sections, separators. */
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
 * already checked, so that is tried first.
 */
static bool
parse_line(const char *line, size_t len, const bool *pkg_ok, struct line *l)
{
	const char *end = line + len, *pkgs, *p;

	if (l->pkglen > 0 && l->pkglen < len &&
	    is_blank(end[-(ptrdiff_t)l->pkglen - 1]) &&
	    memcmp(end - l->pkglen, l->packages, l->pkglen) == 0) {
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
	}
	p = pkgs;
	/* Columns are padded with spaces: skip them eight at a time. */
	while (p - line >= 8) {
		uint64_t w;

		memcpy(&w, p - 8, 8);
		if (w != 0x2020202020202020ull)
			break;
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
	l->packages = pkgs;
	l->pkglen = end - pkgs;
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

/*
 * Parse chunk C, calling ENTRY for each kept path, and for the package list
 * of the other lines when it differs from the last one given (neighbouring
 * paths mostly come from one package).  Only a kept path is looked at
 * further (a NUL in it makes the line bad): the others are never stored.
 */
static void
consume(const struct chunk *c, const bool *pkg_ok, contents_entry_fn *entry,
        void *ctx, struct contents_stats *stats)
{
	const char *p = c->data, *end = c->data + c->len;
	const char *last = NULL;
	size_t lastlen = 0;
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
		const char *nl = memchr(p, '\n', end - p);
		struct line prev = l;

		stats->lines++;
		if (nl == p) {
			p++;
			continue;
		}
		if (!parse_line(p, nl - p, pkg_ok, &l)) {
			l = prev;
			stats->bad_lines++;
		} else if (contents_is_export(l.path, l.pathlen)) {
			if (memchr(l.path, '\0', l.pathlen) != NULL) {
				stats->bad_lines++;
			} else {
				stats->entries++;
				stats->kept++;
				entry(ctx, l.path, l.pathlen,
				      contents_hash(l.path, l.pathlen),
				      l.packages, l.pkglen);
			}
		} else {
			stats->entries++;
			if (l.pkglen != lastlen ||
			    memcmp(l.packages, last, lastlen) != 0) {
				entry(ctx, NULL, 0, 0, l.packages, l.pkglen);
				last = l.packages;
				lastlen = l.pkglen;
			}
		}
		p = nl + 1;
	}
}

/*
 * Fill chunks from file I: each chunk ends after its last newline; the
 * rest starts the next one.  Returns an error message or NULL.
 */
static const char *
produce_file(struct pipeline *p, int i, char *errbuf, size_t errlen)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	char *carry = malloc(CHUNK_SIZE);
	size_t ncarry = 0;
	bool first = true, eof = false;
	const char *error = NULL;

	if (a == NULL || carry == NULL)
		abort();
	archive_read_support_format_raw(a);
	archive_read_support_filter_all(a);
	if (archive_read_open_filename(a, p->filenames[i], 1 << 20) !=
	    ARCHIVE_OK || archive_read_next_header(a, &e) != ARCHIVE_OK) {
		snprintf(errbuf, errlen, "%s: %s", p->filenames[i],
		         archive_reason(a));
		error = errbuf;
	}
	while (error == NULL && !eof) {
		struct chunk *c = producer_get(p);
		char *nl;

		if (c == NULL)
			break;
		memcpy(c->data, carry, ncarry);
		c->len = ncarry;
		ncarry = 0;
		while (c->len < CHUNK_SIZE) {
			la_ssize_t n = archive_read_data(a, c->data + c->len,
			                                 CHUNK_SIZE - c->len);

			if (n < 0) {
				snprintf(errbuf, errlen, "%s: %s",
				         p->filenames[i], archive_reason(a));
				error = errbuf;
				break;
			}
			if (n == 0) {
				eof = true;
				break;
			}
			c->len += n;
		}
		if (error)
			break;
		nl = memrchr(c->data, '\n', c->len);
		if (eof) {
			/* A last line without its newline still counts; the
			 * loop stops before a full chunk sees the end. */
			if (c->len > 0 && c->data[c->len - 1] != '\n')
				c->data[c->len++] = '\n';
		} else if (nl == NULL) {
			snprintf(errbuf, errlen, "%s: a line longer than %u "
			         "bytes", p->filenames[i], CHUNK_SIZE);
			error = errbuf;
			break;
		} else {
			ncarry = c->len - (nl + 1 - c->data);
			memcpy(carry, nl + 1, ncarry);
			c->len = nl + 1 - c->data;
		}
		c->first = first;
		first = false;
		producer_put(p);
	}
	free(carry);
	archive_read_free(a);
	return error;
}

static void *
producer(void *arg)
{
	struct pipeline *p = arg;
	char errbuf[1024];
	const char *error = NULL;
	int i;

	for (i = 0; i < p->nfiles && error == NULL; i++)
		error = produce_file(p, i, errbuf, sizeof(errbuf));
	producer_finish(p, error);
	return NULL;
}

int
contents_read(const char *const *filenames, int nfiles,
              contents_entry_fn *entry, void *ctx,
              struct contents_stats *stats, struct dpkg_error *err)
{
	struct pipeline p;
	pthread_t thread;
	int i, ret = 0;

	memset(&p, 0, sizeof(p));
	package_list_bytes(p.pkg_ok);
	p.filenames = filenames;
	p.nfiles = nfiles;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	for (i = 0; i < NCHUNKS; i++) {
		/* One spare byte: a last line may get its newline added. */
		p.chunks[i].data = malloc(CHUNK_SIZE + 1);
		if (p.chunks[i].data == NULL)
			abort();
	}
	if (pthread_create(&thread, NULL, producer, &p) != 0)
		abort();
	for (;;) {
		struct chunk *c;

		pthread_mutex_lock(&p.lock);
		while (p.head == p.tail && !p.done)
			pthread_cond_wait(&p.changed, &p.lock);
		if (p.head == p.tail) {
			pthread_mutex_unlock(&p.lock);
			break;
		}
		c = &p.chunks[p.head % NCHUNKS];
		pthread_mutex_unlock(&p.lock);

		consume(c, p.pkg_ok, entry, ctx, stats);

		pthread_mutex_lock(&p.lock);
		p.head++;
		pthread_cond_broadcast(&p.changed);
		pthread_mutex_unlock(&p.lock);
	}
	pthread_join(thread, NULL);
	if (p.error[0] != '\0')
		ret = dpkg_put_error(err, "%s", p.error);
	for (i = 0; i < NCHUNKS; i++) {
		free(p.chunks[i].data);
	}
	pthread_cond_destroy(&p.changed);
	pthread_mutex_destroy(&p.lock);
	return ret;
}

static inline uint64_t
mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t
contents_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;

	while (len >= 8) {
		memcpy(&w, s, 8);
		h = mix(h ^ w, 0xbf58476d1ce4e5b9ull);
		s += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, s, len);
	h = mix(h ^ w, 0x94d049bb133111ebull);
	return mix(h, 0x9e3779b97f4a7c15ull);
}

const char *
contents_item_package(const char *item, size_t len, size_t *namelen)
{
	const char *slash = memrchr(item, '/', len);
	const char *name = slash ? slash + 1 : item;

	*namelen = item + len - name;
	return name;
}
