/*
 * patch-blob.c: find references in data that cannot be patched.
 *
 * Compressed streams and zip archives are decompressed (libarchive) and
 * searched; other binary data is searched as it is.  Whatever is found is
 * reported: rewriting it would mean re-encoding data whose format this
 * tool does not own (marshalled bytecode, jars).  Gettext catalogues have
 * their own patcher (patch-mo.c).
 */
#include <archive.h>
#include <archive_entry.h>
#include <libdeflate.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/dynload.h"
#include "relocate/patch.h"

/*
 * libarchive is loaded with dlopen() the first time a package holds
 * compressed data that is not gzip: linked, it and what it needs (libxml2,
 * ICU, libstdc++) cost every run of every debhelper step milliseconds of
 * relocation, more than a no-op run of the step itself.
 */
#define LIBARCHIVE "libarchive.so.13"

#define ARCHIVE_FUNCTIONS(X) \
	X(archive_entry_pathname) \
	X(archive_read_data) \
	X(archive_read_free) \
	X(archive_read_new) \
	X(archive_read_next_header) \
	X(archive_read_open_memory) \
	X(archive_read_support_filter_all) \
	X(archive_read_support_format_raw) \
	X(archive_read_support_format_zip)

DYNLOAD_LIBRARY(libarchive, LIBARCHIVE, ARCHIVE_FUNCTIONS)

/* From here on, every call goes through the loaded pointers. */
#define archive_entry_pathname (*dl_archive_entry_pathname)
#define archive_read_data (*dl_archive_read_data)
#define archive_read_free (*dl_archive_read_free)
#define archive_read_new (*dl_archive_read_new)
#define archive_read_next_header (*dl_archive_read_next_header)
#define archive_read_open_memory (*dl_archive_read_open_memory)
#define archive_read_support_filter_all (*dl_archive_read_support_filter_all)
#define archive_read_support_format_raw (*dl_archive_read_support_format_raw)
#define archive_read_support_format_zip (*dl_archive_read_support_format_zip)

/* Decompressed data past this is not searched (and is reported). */
#define BLOB_MAX_EXPANDED (512u << 20)
struct blob_kind {
	const char *magic;
	size_t magiclen;
	const char *name;
	bool zip;
};

static const struct blob_kind compressed_kinds[] = {
	{ "\x1f\x8b", 2, "gzip", false },
	{ "\xfd" "7zXZ\0", 6, "xz", false },
	{ "BZh?1AY&SY", 10, "bzip2", false },
	{ "\x28\xb5\x2f\xfd", 4, "zstd", false },
	{ "\x04\x22\x4d\x18", 4, "lz4", false },
	{ "PK\x03\x04", 4, "zip", true },
	{ NULL, 0, NULL, false },
};

/* MAGIC at the start of BUF; a '?' in MAGIC stands for any byte. */
static bool
magic_matches(const struct blob_kind *kind, const unsigned char *buf,
              size_t len)
{
	size_t i;

	if (len < kind->magiclen)
		return false;
	for (i = 0; i < kind->magiclen; i++)
		if (kind->magic[i] != '?' && (unsigned char)kind->magic[i] != buf[i])
			return false;
	return true;
}

static void
scan_plain(struct pathmap_scanner *sc, const char *file,
           const unsigned char *buf, size_t len, const char *reason,
           struct report *report)
{
	struct pathmap_match m;
	size_t pos = 0;

	while (pathmap_next(sc, buf, len, pos, &m)) {
		report_unpatched(report, file, (long long)m.start,
		                 (const char *)buf + m.start, m.len, reason);
		pos = m.start + m.len;
	}
	if (memchr(buf, '\0', len) != NULL)
		patch_report_utf16(sc, file, buf, len, report);
}

void
patch_report_utf16(struct pathmap_scanner *sc, const char *file,
                   const unsigned char *buf, size_t len,
                   struct report *report)
{
	struct pathmap_match m;
	size_t pos = 0;

	while (pathmap_next_utf16(sc, buf, len, pos, &m)) {
		report_unpatched(report, file, (long long)m.start, m.old,
		                 strlen(m.old), "UTF-16 string");
		pos = m.start + (m.len ? m.len : 1);
	}
}

/* Read the current entry's data whole, up to BLOB_MAX_EXPANDED. */
static unsigned char *
read_entry(struct archive *a, size_t *len, bool *truncated)
{
	size_t alloc = 65536, n = 0;
	unsigned char *data = malloc(alloc);
	la_ssize_t got;

	*truncated = false;
	if (data == NULL)
		return NULL;
	for (;;) {
		if (n == alloc) {
			void *v;

			if (alloc >= BLOB_MAX_EXPANDED) {
				*truncated = true;
				break;
			}
			alloc *= 2;
			v = realloc(data, alloc);
			if (v == NULL) {
				free(data);
				return NULL;
			}
			data = v;
		}
		got = archive_read_data(a, data + n, alloc - n);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	*len = n;
	return data;
}

static int
scan_archive(struct pathmap_scanner *sc, const char *file,
             const unsigned char *buf, size_t len,
             const struct blob_kind *kind, struct report *report)
{
	struct archive *a;
	struct archive_entry *ae;
	char reason[PATH_MAX + 64];
	const char *unloaded = dynload(&libarchive);

	if (unloaded != NULL) {
		snprintf(reason, sizeof(reason), "compressed data, which "
		         "cannot be searched: %s", unloaded);
		report_unpatched(report, file, 0, "", 0, reason);
		return 0;
	}
	a = archive_read_new();
	if (a == NULL)
		return -1;
	archive_read_support_filter_all(a);
	if (kind->zip)
		archive_read_support_format_zip(a);
	else
		archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK) {
		archive_read_free(a);
		scan_plain(sc, file, buf, len, "binary data", report);
		return 0;
	}
	while (archive_read_next_header(a, &ae) == ARCHIVE_OK) {
		bool truncated;
		size_t n = 0;
		unsigned char *data = read_entry(a, &n, &truncated);

		if (data == NULL) {
			archive_read_free(a);
			return -1;
		}
		if (kind->zip)
			snprintf(reason, sizeof(reason), "inside zip member %s",
			         archive_entry_pathname(ae) ?
			         archive_entry_pathname(ae) : "?");
		else
			snprintf(reason, sizeof(reason), "inside %s-compressed "
			         "data (offset after decompression)", kind->name);
		scan_plain(sc, file, data, n, reason, report);
		if (truncated)
			report_unpatched(report, file, (long long)n, "", 0,
			                 "compressed data expands past 512 MiB; "
			                 "not searched further");
		free(data);
	}
	archive_read_free(a);
	return 0;
}

/*
 * gzip through libdeflate: whole-buffer inflation, about twice zlib's
 * speed, and gzip is what packages compress with (man pages, changelogs).
 * Returns 1 when done, 0 when the data is not gzip it can read (the
 * caller falls back to libarchive), -1 on allocation failure.
 */
static int
scan_gzip(struct pathmap_scanner *sc, const char *file,
          const unsigned char *buf, size_t len, struct report *report)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	/* The trailer's ISIZE (modulo 4 GiB) of the last member: a hint. */
	size_t cap = len >= 18 ? (size_t)buf[len - 4] |
	             (size_t)buf[len - 3] << 8 | (size_t)buf[len - 2] << 16 |
	             (size_t)buf[len - 1] << 24 : 0;
	size_t in = 0, out = 0;
	unsigned char *data;

	if (d == NULL)
		return -1;
	/* Deflate expands at most 1032:1: a trailer claiming more lies, and
	 * would have a few bytes allocate the whole limit. */
	if (cap > len * 1032 + 65536)
		cap = len * 1032 + 65536;
	if (cap < len * 4)
		cap = len * 4;
	if (cap > BLOB_MAX_EXPANDED)
		cap = BLOB_MAX_EXPANDED;
	data = malloc(cap);
	if (data == NULL) {
		libdeflate_free_decompressor(d);
		return -1;
	}
	while (in < len) {
		size_t used_in = 0, got = 0;
		enum libdeflate_result r;

		r = libdeflate_gzip_decompress_ex(d, buf + in, len - in,
		                                  data + out, cap - out,
		                                  &used_in, &got);
		if (r == LIBDEFLATE_INSUFFICIENT_SPACE &&
		    cap < BLOB_MAX_EXPANDED) {
			size_t ncap = cap * 2 > BLOB_MAX_EXPANDED ?
			              BLOB_MAX_EXPANDED : cap * 2;
			void *v = realloc(data, ncap);

			if (v == NULL) {
				free(data);
				libdeflate_free_decompressor(d);
				return -1;
			}
			data = v;
			cap = ncap;
			continue;
		}
		if (r != LIBDEFLATE_SUCCESS) {
			free(data);
			libdeflate_free_decompressor(d);
			return 0;
		}
		in += used_in;
		out += got;
		/* Trailing zeros after the last member are padding. */
		while (in < len && buf[in] == 0)
			in++;
	}
	libdeflate_free_decompressor(d);
	scan_plain(sc, file, data, out, "inside gzip-compressed data "
	           "(offset after decompression)", report);
	free(data);
	return 1;
}

int
patch_blob(struct pathmap_scanner *sc, const char *file,
           const unsigned char *buf, size_t len, struct report *report)
{
	const char *reason = "binary data";
	int i;

	if (magic_matches(&compressed_kinds[0], buf, len)) {
		int done = scan_gzip(sc, file, buf, len, report);

		if (done != 0)
			return done < 0 ? -1 : 0;
	}
	for (i = 0; compressed_kinds[i].magic; i++)
		if (magic_matches(&compressed_kinds[i], buf, len))
			return scan_archive(sc, file, buf, len,
			                    &compressed_kinds[i], report);
	if (len >= 4 && (memcmp(buf, "\xde\x12\x04\x95", 4) == 0 ||
	                 memcmp(buf, "\x95\x04\x12\xde", 4) == 0))
		reason = "gettext catalog (.mo)";
	else if (str_match_end(file, ".pyc"))
		reason = "Python bytecode";
	scan_plain(sc, file, buf, len, reason, report);
	return 0;
}

bool
patch_is_compressed(const unsigned char *buf, size_t len)
{
	int i;

	for (i = 0; compressed_kinds[i].magic; i++)
		if (magic_matches(&compressed_kinds[i], buf, len))
			return true;
	return false;
}
