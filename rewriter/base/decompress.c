/*
 * decompress.c: compressed streams read in process, through zlib, liblzma,
 * libzstd, libbz2 and liblz4.
 *
 * dpkg-deb decompresses a member in a child process fed through a pipe;
 * here the stream reads the member's bytes from the file itself, bounded
 * by its size, so that a check costs no fork.  The end of a stream is
 * where each of dpkg's decompressors stops: the end of an xz, lzma, zstd
 * or bzip2 stream, the last of concatenated gzip members.  Input that
 * ends before it is an error.
 *
 * Each library is loaded (base/dynload) when a stream first needs it, so
 * that a check of a .deb maps only the one its members use: linked, the
 * five cost every start of every command about 1.5 ms here, a sixth of a
 * whole check.  debian/control names them in Depends.
 */
#include <bzlib.h>
#include <errno.h>
#include <lz4frame.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/decompress.h"
#include "base/dynload.h"

#define INPUT_SIZE (64 * 1024)
/* xz's -9 needs 65 MiB; no dictionary a package needs comes near. */
#define XZ_MEMLIMIT (256u << 20)

#define ZLIB_FUNCTIONS(X) \
	X(inflateInit2_) X(inflate) X(inflateReset) X(inflateEnd)
#define LZMA_FUNCTIONS(X) \
	X(lzma_stream_decoder) X(lzma_alone_decoder) X(lzma_code) X(lzma_end)
#define ZSTD_FUNCTIONS(X) \
	X(ZSTD_createDCtx) X(ZSTD_decompressStream) X(ZSTD_isError) \
	X(ZSTD_getErrorName) X(ZSTD_freeDCtx)
#define BZIP2_FUNCTIONS(X) \
	X(BZ2_bzDecompressInit) X(BZ2_bzDecompress) X(BZ2_bzDecompressEnd)
#define LZ4_FUNCTIONS(X) \
	X(LZ4F_createDecompressionContext) X(LZ4F_decompress) \
	X(LZ4F_isError) X(LZ4F_getErrorName) X(LZ4F_freeDecompressionContext)

DYNLOAD_LIBRARY(zlib, "libz.so.1", ZLIB_FUNCTIONS)
DYNLOAD_LIBRARY(liblzma, "liblzma.so.5", LZMA_FUNCTIONS)
DYNLOAD_LIBRARY(libzstd, "libzstd.so.1", ZSTD_FUNCTIONS)
DYNLOAD_LIBRARY(libbz2, "libbz2.so.1.0", BZIP2_FUNCTIONS)
DYNLOAD_LIBRARY(liblz4, "liblz4.so.1", LZ4_FUNCTIONS)

/* NULL once TYPE's library is loaded (by the first stream of its type),
 * else why it cannot be. */
static const char *
load_library(enum decompress_type type)
{
	switch (type) {
	case DECOMPRESS_GZIP:
		return dynload(&zlib);
	case DECOMPRESS_XZ:
	case DECOMPRESS_LZMA:
		return dynload(&liblzma);
	case DECOMPRESS_ZSTD:
		return dynload(&libzstd);
	case DECOMPRESS_BZIP2:
		return dynload(&libbz2);
	case DECOMPRESS_LZ4:
		return dynload(&liblz4);
	case DECOMPRESS_NONE:
	case DECOMPRESS_UNKNOWN:
		break;
	}
	return NULL;
}

struct decompress {
	enum decompress_type type;
	int fd;
	int64_t left;		/* bytes of FD still to read; -1: to its end */
	char *name;
	bool ended;		/* the compressed stream ended */
	bool between_frames;	/* lz4: a frame ended, no other began */
	bool started;		/* the decompressor is set up */
	/* Why it could not be (reported by the first read), or NULL. */
	char *failed;
	unsigned char *in;
	size_t in_pos, in_len;
	bool in_eof;		/* nothing more to read from FD */
	union {
		z_stream z;
		lzma_stream x;
		ZSTD_DCtx *zstd;
		bz_stream bz;
		LZ4F_dctx *lz4;
	} s;
};

static const struct {
	const char *extension;
	enum decompress_type type;
} extensions[] = {
	{ "", DECOMPRESS_NONE },
	{ ".gz", DECOMPRESS_GZIP },
	{ ".xz", DECOMPRESS_XZ },
	{ ".lzma", DECOMPRESS_LZMA },
	{ ".zst", DECOMPRESS_ZSTD },
	{ ".bz2", DECOMPRESS_BZIP2 },
	{ ".lz4", DECOMPRESS_LZ4 },
};

enum decompress_type
decompress_type_by_extension(const char *extension)
{
	size_t i;

	for (i = 0; i < sizeof(extensions) / sizeof(*extensions); i++)
		if (strcmp(extension, extensions[i].extension) == 0)
			return extensions[i].type;
	return DECOMPRESS_UNKNOWN;
}

enum decompress_type
decompress_type_sniff(const void *head, size_t n)
{
	static const struct {
		const char *magic;
		size_t len;
		enum decompress_type type;
	} magics[] = {
		{ "\x1f\x8b", 2, DECOMPRESS_GZIP },
		{ "\xfd" "7zXZ\0", 6, DECOMPRESS_XZ },
		{ "\x28\xb5\x2f\xfd", 4, DECOMPRESS_ZSTD },
		{ "BZh", 3, DECOMPRESS_BZIP2 },
		{ "\x04\x22\x4d\x18", 4, DECOMPRESS_LZ4 },
	};
	size_t i;

	for (i = 0; i < sizeof(magics) / sizeof(*magics); i++)
		if (n >= magics[i].len &&
		    memcmp(head, magics[i].magic, magics[i].len) == 0)
			return magics[i].type;
	return DECOMPRESS_NONE;
}

struct decompress *
decompress_new(enum decompress_type type, int fd, int64_t limit,
               const char *name)
{
	struct decompress *d = m_malloc(sizeof(*d));
	const char *unloaded = load_library(type);
	bool ok = true;

	memset(d, 0, sizeof(*d));
	d->type = type;
	d->fd = fd;
	d->left = limit;
	d->name = m_strdup(name);
	d->in = m_malloc(INPUT_SIZE);
	if (unloaded != NULL) {
		d->failed = m_strdup(unloaded);
		return d;
	}
	switch (type) {
	case DECOMPRESS_GZIP:
		/* 15 + 16: gzip only.  gzread would pass other data
		 * through; the gate refuses it (extras-review(1)). */
		ok = dl_inflateInit2_(&d->s.z, 15 + 16, ZLIB_VERSION,
		                      (int)sizeof(z_stream)) == Z_OK;
		break;
	case DECOMPRESS_XZ:
		d->s.x = (lzma_stream)LZMA_STREAM_INIT;
		ok = dl_lzma_stream_decoder(&d->s.x, XZ_MEMLIMIT, 0) == LZMA_OK;
		break;
	case DECOMPRESS_LZMA:
		d->s.x = (lzma_stream)LZMA_STREAM_INIT;
		ok = dl_lzma_alone_decoder(&d->s.x, XZ_MEMLIMIT) == LZMA_OK;
		break;
	case DECOMPRESS_ZSTD:
		ok = (d->s.zstd = dl_ZSTD_createDCtx()) != NULL;
		break;
	case DECOMPRESS_BZIP2:
		ok = dl_BZ2_bzDecompressInit(&d->s.bz, 0, 0) == BZ_OK;
		break;
	case DECOMPRESS_LZ4:
		ok = !dl_LZ4F_isError(dl_LZ4F_createDecompressionContext(
			&d->s.lz4, LZ4F_VERSION));
		break;
	case DECOMPRESS_NONE:
	case DECOMPRESS_UNKNOWN:
		break;
	}
	d->started = ok;
	if (!ok)
		d->failed = m_strdup("cannot start the decompressor");
	return d;
}

/* Read up to N bytes of FD within the limit; -1 with ERR set. */
static ssize_t
read_fd(struct decompress *d, void *buf, size_t n, struct dpkg_error *err)
{
	ssize_t got;

	if (d->left >= 0 && (uint64_t)d->left < n)
		n = d->left;
	if (n == 0)
		return 0;
	do
		got = read(d->fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return dpkg_put_errno(err, "%s: cannot read", d->name);
	if (d->left >= 0)
		d->left -= got;
	return got;
}

/* Make input available unless FD is exhausted; -1 on a read error. */
static int
fill_input(struct decompress *d, struct dpkg_error *err)
{
	ssize_t got;

	if (d->in_pos < d->in_len || d->in_eof)
		return 0;
	got = read_fd(d, d->in, INPUT_SIZE, err);
	if (got < 0)
		return -1;
	d->in_pos = 0;
	d->in_len = got;
	d->in_eof = got == 0;
	return 0;
}

static int
corrupt(struct decompress *d, const char *what, struct dpkg_error *err)
{
	return dpkg_put_error(err, "%s: corrupt compressed data (%s)",
	                      d->name, what);
}

/* Another gzip member follows the one that ended: gzread goes on. */
static int
next_gzip_member(struct decompress *d, struct dpkg_error *err)
{
	if (fill_input(d, err) < 0)
		return -1;
	if (d->in_len - d->in_pos >= 2 && d->in[d->in_pos] == 0x1f &&
	    d->in[d->in_pos + 1] == 0x8b)
		dl_inflateReset(&d->s.z);
	else
		d->ended = true;
	return 0;
}

/* One step of the decompressor: input at IN, output at OUT. */
static int
step(struct decompress *d, const unsigned char **in, size_t *inlen,
     unsigned char **out, size_t *outlen, struct dpkg_error *err)
{
	switch (d->type) {
	case DECOMPRESS_GZIP: {
		z_stream *z = &d->s.z;
		int r;

		z->next_in = (unsigned char *)*in;
		z->avail_in = *inlen;
		z->next_out = *out;
		z->avail_out = *outlen;
		r = dl_inflate(z, Z_NO_FLUSH);
		*in = z->next_in;
		*inlen = z->avail_in;
		*out = z->next_out;
		*outlen = z->avail_out;
		if (r == Z_STREAM_END)
			return 1;
		if (r != Z_OK && r != Z_BUF_ERROR)
			return corrupt(d, z->msg ? z->msg : "gzip", err);
		return 0;
	}
	case DECOMPRESS_XZ:
	case DECOMPRESS_LZMA: {
		lzma_stream *x = &d->s.x;
		lzma_ret r;

		x->next_in = *in;
		x->avail_in = *inlen;
		x->next_out = *out;
		x->avail_out = *outlen;
		r = dl_lzma_code(x, LZMA_RUN);
		*in = x->next_in;
		*inlen = x->avail_in;
		*out = x->next_out;
		*outlen = x->avail_out;
		if (r == LZMA_STREAM_END)
			return 1;
		if (r == LZMA_MEMLIMIT_ERROR)
			return dpkg_put_error(err, "%s: the xz stream needs "
			                      "more than %u MiB to decompress",
			                      d->name, XZ_MEMLIMIT >> 20);
		if (r != LZMA_OK && r != LZMA_BUF_ERROR)
			return corrupt(d, "xz", err);
		return 0;
	}
	case DECOMPRESS_ZSTD: {
		ZSTD_inBuffer zin = { *in, *inlen, 0 };
		ZSTD_outBuffer zout = { *out, *outlen, 0 };
		size_t r = dl_ZSTD_decompressStream(d->s.zstd, &zout, &zin);

		*in += zin.pos;
		*inlen -= zin.pos;
		*out += zout.pos;
		*outlen -= zout.pos;
		if (dl_ZSTD_isError(r))
			return corrupt(d, dl_ZSTD_getErrorName(r), err);
		return r == 0;
	}
	case DECOMPRESS_BZIP2: {
		bz_stream *bz = &d->s.bz;
		int r;

		bz->next_in = (char *)*in;
		bz->avail_in = *inlen;
		bz->next_out = (char *)*out;
		bz->avail_out = *outlen;
		r = dl_BZ2_bzDecompress(bz);
		*in = (const unsigned char *)bz->next_in;
		*inlen = bz->avail_in;
		*out = (unsigned char *)bz->next_out;
		*outlen = bz->avail_out;
		if (r == BZ_STREAM_END)
			return 1;
		if (r != BZ_OK)
			return corrupt(d, "bzip2", err);
		return 0;
	}
	case DECOMPRESS_LZ4: {
		size_t src = *inlen, dst = *outlen;
		size_t r = dl_LZ4F_decompress(d->s.lz4, *out, &dst, *in, &src,
		                              NULL);

		if (dl_LZ4F_isError(r))
			return corrupt(d, dl_LZ4F_getErrorName(r), err);
		*in += src;
		*inlen -= src;
		*out += dst;
		*outlen -= dst;
		/* A frame ended; another may follow, as lz4cat reads. */
		return r == 0 ? 2 : 0;
	}
	case DECOMPRESS_NONE:
	case DECOMPRESS_UNKNOWN:
		break;
	}
	return dpkg_put_error(err, "%s: unknown compression", d->name);
}

ssize_t
decompress_read(struct decompress *d, void *buf, size_t n,
                struct dpkg_error *err)
{
	unsigned char *out = buf;
	size_t outlen = n;

	if (d->failed != NULL)
		return dpkg_put_error(err, "%s: %s", d->name, d->failed);
	if (d->type == DECOMPRESS_NONE) {
		while (outlen > 0) {
			size_t avail;
			ssize_t got;

			/* Large reads go straight to BUF; small ones, as
			 * tar's 512-byte blocks, come from the buffer. */
			if (d->in_pos == d->in_len && outlen >= INPUT_SIZE) {
				got = read_fd(d, out, outlen, err);
				if (got < 0)
					return -1;
				if (got == 0)
					break;
				out += got;
				outlen -= got;
				continue;
			}
			if (fill_input(d, err) < 0)
				return -1;
			avail = d->in_len - d->in_pos;
			if (avail == 0)
				break;
			if (avail > outlen)
				avail = outlen;
			memcpy(out, d->in + d->in_pos, avail);
			d->in_pos += avail;
			out += avail;
			outlen -= avail;
		}
		return out - (unsigned char *)buf;
	}
	while (outlen > 0 && !d->ended) {
		const unsigned char *in;
		size_t inlen, before;
		int r;

		if (fill_input(d, err) < 0)
			return -1;
		if (d->in_pos == d->in_len) {
			/* The input ended: whole only between lz4 frames. */
			if (d->between_frames) {
				d->ended = true;
				break;
			}
			return dpkg_put_error(err, "%s: compressed data is "
			                      "truncated", d->name);
		}
		in = d->in + d->in_pos;
		inlen = before = d->in_len - d->in_pos;
		r = step(d, &in, &inlen, &out, &outlen, err);
		if (r < 0)
			return -1;
		d->in_pos += before - inlen;
		if (r == 2)
			d->between_frames = true;
		else if (inlen != before)
			d->between_frames = false;
		if (r == 1 && d->type == DECOMPRESS_GZIP) {
			if (next_gzip_member(d, err) < 0)
				return -1;
		} else if (r == 1) {
			d->ended = true;
		}
	}
	return out - (unsigned char *)buf;
}

int64_t
decompress_unread(const struct decompress *d)
{
	return d->left < 0 ? 0 : d->left;
}

void
decompress_free(struct decompress *d)
{
	if (d == NULL)
		return;
	switch (d->started ? d->type : DECOMPRESS_NONE) {
	case DECOMPRESS_GZIP:
		dl_inflateEnd(&d->s.z);
		break;
	case DECOMPRESS_XZ:
	case DECOMPRESS_LZMA:
		dl_lzma_end(&d->s.x);
		break;
	case DECOMPRESS_ZSTD:
		dl_ZSTD_freeDCtx(d->s.zstd);
		break;
	case DECOMPRESS_BZIP2:
		dl_BZ2_bzDecompressEnd(&d->s.bz);
		break;
	case DECOMPRESS_LZ4:
		dl_LZ4F_freeDecompressionContext(d->s.lz4);
		break;
	case DECOMPRESS_NONE:
	case DECOMPRESS_UNKNOWN:
		break;
	}
	free(d->in);
	free(d->failed);
	free(d->name);
	free(d);
}
