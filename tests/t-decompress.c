/*
 * Facts about compressed streams read in process: every format dpkg
 * reads, bounded by a limit, and what is damaged or cut short is an error.
 * The data is compressed here by the same libraries' encoders.
 */
#include <bzlib.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "../tests/tap.h"
#include "base/decompress.h"

#define PLAIN_SIZE (300 * 1024)
#define BIG (PLAIN_SIZE * 2)

static unsigned char plain[PLAIN_SIZE];

static size_t
gzip(unsigned char *out, size_t cap, const unsigned char *in, size_t n)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (unsigned char *)in;
	z.avail_in = n;
	z.next_out = out;
	z.avail_out = cap;
	deflate(&z, Z_FINISH);
	deflateEnd(&z);
	return cap - z.avail_out;
}

/* PLAIN compressed as TYPE into OUT; its size. */
static size_t
compress_as(enum decompress_type type, unsigned char *out, size_t cap)
{
	size_t n = 0;
	unsigned int bzlen = cap;
	lzma_options_lzma opt;
	lzma_stream x = LZMA_STREAM_INIT;

	switch (type) {
	case DECOMPRESS_NONE:
		memcpy(out, plain, sizeof(plain));
		return sizeof(plain);
	case DECOMPRESS_GZIP:
		return gzip(out, cap, plain, sizeof(plain));
	case DECOMPRESS_XZ:
		lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, plain,
		                        sizeof(plain), out, &n, cap);
		return n;
	case DECOMPRESS_LZMA:
		lzma_lzma_preset(&opt, 6);
		if (lzma_alone_encoder(&x, &opt) != LZMA_OK)
			abort();
		x.next_in = plain;
		x.avail_in = sizeof(plain);
		x.next_out = out;
		x.avail_out = cap;
		if (lzma_code(&x, LZMA_FINISH) != LZMA_STREAM_END)
			abort();
		n = cap - x.avail_out;
		lzma_end(&x);
		return n;
	case DECOMPRESS_ZSTD:
		return ZSTD_compress(out, cap, plain, sizeof(plain), 3);
	case DECOMPRESS_BZIP2:
		BZ2_bzBuffToBuffCompress((char *)out, &bzlen, (char *)plain,
		                         sizeof(plain), 9, 0, 0);
		return bzlen;
	case DECOMPRESS_LZ4: {
		/* As the lz4 program writes frames: with a checksum. */
		LZ4F_preferences_t prefs;

		memset(&prefs, 0, sizeof(prefs));
		prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
		return LZ4F_compressFrame(out, cap, plain, sizeof(plain), &prefs);
	}
	case DECOMPRESS_UNKNOWN:
		break;
	}
	return 0;
}

/* A file holding HEAD bytes of 'h', DATA, then TAIL bytes of 't'. */
static int
file_with(const unsigned char *data, size_t n, size_t head, size_t tail)
{
	char name[] = "/tmp/t-decompress.XXXXXX";
	int fd = mkstemp(name);
	unsigned char pad[64];

	unlink(name);
	memset(pad, 'h', sizeof(pad));
	if (write(fd, pad, head) != (ssize_t)head ||
	    write(fd, data, n) != (ssize_t)n)
		abort();
	memset(pad, 't', sizeof(pad));
	if (write(fd, pad, tail) != (ssize_t)tail)
		abort();
	lseek(fd, head, SEEK_SET);
	return fd;
}

/* Everything D gives, into OUT (BIG bytes); -1 on error. */
static ssize_t
drain(struct decompress *d, unsigned char *out, struct dpkg_error *err)
{
	size_t total = 0;
	ssize_t got;

	/* Odd sizes: no read lines up with a block of any format. */
	while ((got = decompress_read(d, out + total, 4093, err)) > 0)
		total += got;
	return got < 0 ? -1 : (ssize_t)total;
}

static const char *const names[] = {
	"none", "gzip", "xz", "lzma", "zstd", "bzip2", "lz4",
};

int
main(void)
{
	unsigned char *packed = malloc(BIG), *out = malloc(BIG);
	struct dpkg_error err = DPKG_ERROR_INIT;
	enum decompress_type t;
	size_t i;

	test_plan(7 * 4 + 12);
	for (i = 0; i < sizeof(plain); i++)
		plain[i] = "usr/share/doc/\n"[i % 15] ^ (i / 4096 % 3);

	for (t = DECOMPRESS_NONE; t < DECOMPRESS_UNKNOWN; t++) {
		size_t n = compress_as(t, packed, BIG);
		char what[80];
		int fd;
		struct decompress *d;
		ssize_t got;

		/* Whole, between other bytes: read to the end, no further
		 * than the limit, what follows left on the file. */
		fd = file_with(packed, n, 7, 9);
		d = decompress_new(t, fd, n, "f");
		got = drain(d, out, &err);
		snprintf(what, sizeof(what), "%s: the data, whole", names[t]);
		tap_result(got == sizeof(plain) &&
		           memcmp(out, plain, sizeof(plain)) == 0,
		           __FILE__, __LINE__, what);
		snprintf(what, sizeof(what), "%s: nothing past the limit read",
		         names[t]);
		tap_result(lseek(fd, 0, SEEK_CUR) ==
		           (off_t)(7 + n - decompress_unread(d)),
		           __FILE__, __LINE__, what);
		decompress_free(d);
		close(fd);

		/* Cut short: an error, not a short stream. */
		fd = file_with(packed, n, 0, 0);
		d = decompress_new(t, fd, n - n / 3, "pkg.deb: data.tar");
		got = drain(d, out, &err);
		snprintf(what, sizeof(what), "%s: truncated data is an error",
		         names[t]);
		tap_result(t == DECOMPRESS_NONE ? got == (ssize_t)(n - n / 3) :
		           got < 0 && strstr(err.str, "pkg.deb: data.tar: ") ==
		           err.str, __FILE__, __LINE__, what);
		dpkg_error_destroy(&err);
		decompress_free(d);
		close(fd);

		/* Damaged in the middle: an error (or, uncompressed, the
		 * bytes as they are). */
		packed[n / 2] ^= 0x55;
		packed[n / 2 + 1] ^= 0xaa;
		fd = file_with(packed, n, 0, 0);
		d = decompress_new(t, fd, -1, "f");
		got = drain(d, out, &err);
		snprintf(what, sizeof(what), "%s: damaged data is an error",
		         names[t]);
		tap_result(t == DECOMPRESS_NONE ? got == (ssize_t)n : got < 0,
		           __FILE__, __LINE__, what);
		dpkg_error_destroy(&err);
		decompress_free(d);
		close(fd);
	}

	/* Two gzip members read as one stream, as gzread reads them; bytes
	 * after the last member are not data. */
	{
		size_t a = gzip(packed, BIG, plain, 1000);
		size_t b = gzip(packed + a, BIG - a, plain + 1000,
		                sizeof(plain) - 1000);
		int fd;
		struct decompress *d;

		memcpy(packed + a + b, "junk", 4);
		fd = file_with(packed, a + b + 4, 0, 0);
		d = decompress_new(DECOMPRESS_GZIP, fd, -1, "f");
		test_int(drain(d, out, &err), ==, sizeof(plain));
		test_ok(memcmp(out, plain, sizeof(plain)) == 0);
		decompress_free(d);
		close(fd);
	}
	/* Two lz4 frames, as lz4cat reads them; nothing after is whole. */
	{
		size_t a = LZ4F_compressFrame(packed, BIG, plain, 5000, NULL);
		size_t b = LZ4F_compressFrame(packed + a, BIG - a,
		                              plain + 5000,
		                              sizeof(plain) - 5000, NULL);
		int fd = file_with(packed, a + b, 0, 0);
		struct decompress *d = decompress_new(DECOMPRESS_LZ4, fd, -1,
		                                      "f");

		test_int(drain(d, out, &err), ==, sizeof(plain));
		test_ok(memcmp(out, plain, sizeof(plain)) == 0);
		decompress_free(d);
		close(fd);
		fd = file_with(packed, 0, 0, 0);
		d = decompress_new(DECOMPRESS_LZ4, fd, -1, "empty.lz4");
		test_int(drain(d, out, &err), ==, -1);
		test_str(err.str, ==, "empty.lz4: compressed data is truncated");
		dpkg_error_destroy(&err);
		decompress_free(d);
		close(fd);
	}

	/* A member's chosen by name, as dpkg-deb chooses: not by content. */
	test_int(decompress_type_by_extension(".xz"), ==, DECOMPRESS_XZ);
	test_int(decompress_type_by_extension(""), ==, DECOMPRESS_NONE);
	test_int(decompress_type_by_extension(".Z"), ==, DECOMPRESS_UNKNOWN);
	/* Or, for a Contents file, by its whole magic number. */
	test_int(decompress_type_sniff("\x28\xb5\x2f\xfd\x04", 5), ==,
	         DECOMPRESS_ZSTD);
	test_int(decompress_type_sniff("\xfd" "7zXZ", 5), ==, DECOMPRESS_NONE);
	test_int(decompress_type_sniff("usr/bin/x", 9), ==, DECOMPRESS_NONE);

	free(packed);
	free(out);
	return tap_failed != 0;
}
