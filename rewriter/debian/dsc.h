/*
 * dsc.h: a source package's .dsc, read and its files verified.
 *
 * The .dsc is hostile input: a clear-signed one is read as the text it
 * signs (the signature is the upload queue's job), file names must be plain
 * base names, and every file of Files must be listed with the same size in
 * Checksums-Sha256 and match its size, MD5, SHA-1 (when listed) and
 * SHA-256, hashed with libmd, before anything reads its content.
 */
#ifndef DH_EXTRAS_DSC_H
#define DH_EXTRAS_DSC_H

#include <stdint.h>

#include "base/error-at.h"
#include "debian/deb822.h"

#define DSC_FILE_MAX (1024 * 1024)

struct dsc_file {
	char *name;
	char *path;		/* beside the .dsc */
	int64_t size;
	char md5[33], sha1[41], sha256[65];
};

struct dsc {
	char *filename;
	char *text;		/* the signed text */
	struct deb822 deb822;
	const struct deb822_stanza *stanza;
	const char *format, *source, *version;
	struct dsc_file *files;
	int nfiles;
};

/* Read FILENAME and verify every file it lists. */
int dsc_load(struct dsc *d, const char *filename, struct dpkg_error *err);
/*
 * The same for TEXT (LEN bytes), the .dsc's signed text as a verifier
 * output it: its files are those beside FILENAME.
 */
int dsc_load_text(struct dsc *d, const char *filename, const char *text,
                  size_t len, struct dpkg_error *err);
void dsc_free(struct dsc *d);

/* The file whose name ends with SUFFIX, or NULL. */
const struct dsc_file *dsc_find_suffix(const struct dsc *d, const char *suffix);

/* Hash the file at PATH; 0, or -1 with ERR. */
int dsc_hash_file(const char *path, const char *name, int64_t *size,
                  char md5[33], char sha1[41], char sha256[65],
                  struct dpkg_error *err);

#endif
