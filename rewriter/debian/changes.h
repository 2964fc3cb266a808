/*
 * changes.h: read an upload's .changes and check the files it lists.
 *
 * Every file of the Files field must be listed in Checksums-Sha256 too,
 * sit beside the .changes, and match its size, MD5 and SHA-256 (hashed
 * with libmd); only then is the .changes returned.  File names are plain
 * base names: a name holding '/' or starting with '.' is refused, so a
 * hostile .changes cannot point outside its directory.  A clear-signed
 * .changes is read as the text it signs; the signature is not verified.
 */
#ifndef DH_EXTRAS_CHANGES_H
#define DH_EXTRAS_CHANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dpkg/error.h>

#include "debian/deb822.h"

struct changes_file {
	char *name;	/* as listed: "extras-foo_1.0_all.deb" */
	char *path;	/* beside the .changes: "dir/extras-foo_1.0_all.deb" */
	int64_t size;
	char md5[33];
	char sha256[65];
	char *section, *priority;
};

struct changes {
	char *filename;
	/* The signed text and its stanza (deb822 keeps TEXT by reference). */
	char *text;
	struct deb822 deb822;
	const struct deb822_stanza *stanza;
	/* The source package's name; and its version when it differs from
	 * the binaries' (a binNMU: "Source: foo (1.0-1)", Version 1.0-1+b1),
	 * else NULL. */
	char *source;
	char *source_version;
	const char *version;
	struct changes_file *files;
	size_t nfiles;
};

/*
 * Read FILENAME, then check every listed file.  Returns 0, or -1 with ERR
 * set ("FILE: checksum mismatch for NAME").
 */
int changes_read(struct changes *ch, const char *filename,
                 struct dpkg_error *err);

/*
 * The same for TEXT (LEN bytes), the signed text of FILENAME as a verifier
 * output it: the files it lists are those beside FILENAME.
 */
int changes_read_text(struct changes *ch, const char *filename,
                      const char *text, size_t len, struct dpkg_error *err);

/* A field of the .changes ("Distribution"), or NULL. */
const char *changes_field(const struct changes *ch, const char *name);

/* Whether F is a binary package (.deb). */
bool changes_file_is_deb(const struct changes_file *f);

void changes_destroy(struct changes *ch);

#endif
