/*
 * dsc.c: a source package's .dsc, read and its files verified.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5.h>
#include <sha1.h>
#include <sha2.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "debian/clearsign.h"
#include "debian/dsc.h"

int
dsc_hash_file(const char *path, const char *name, int64_t *size,
              char md5[33], char sha1[41], char sha256[65],
              struct dpkg_error *err)
{
	MD5_CTX m;
	SHA1_CTX s1;
	SHA2_CTX s2;
	struct stat st;
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return put_error_at(err, name, 0, "cannot open: %s",
		                    errno == ELOOP ? "is a symbolic link" :
		                    strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return put_error_at(err, name, 0, "is not a regular file");
	}
	MD5Init(&m);
	SHA1Init(&s1);
	SHA256Init(&s2);
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		MD5Update(&m, (unsigned char *)buf, n);
		SHA1Update(&s1, (unsigned char *)buf, n);
		SHA256Update(&s2, (unsigned char *)buf, n);
		*size += n;
	}
	close(fd);
	if (n < 0)
		return put_error_at(err, name, 0, "cannot read: %s",
		                    strerror(errno));
	MD5End(&m, md5);
	SHA1End(&s1, sha1);
	SHA256End(&s2, sha256);
	return 0;
}

static bool
is_hex(const char *s, size_t n)
{
	return strlen(s) == n && strspn(s, "0123456789abcdef") == n;
}

/* A listed name: a plain file name beside the .dsc, nothing more. */
static bool
plain_name(const char *name)
{
	return name[0] != '\0' && name[0] != '.' && strlen(name) < 256 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
	              "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.~_") ==
	       strlen(name);
}

/* Each line of a checksums field: "HASH SIZE NAME". */
typedef int line_func(struct dsc *d, const char *field, int line,
                      const char *hash, int64_t size, const char *name,
                      struct dpkg_error *err);

static int
each_line(struct dsc *d, const char *field, line_func *fn,
          struct dpkg_error *err)
{
	const struct deb822_field *f = deb822_find(d->stanza, field);
	char *copy, *line, *save = NULL;
	int lno, ret = 0;

	if (f == NULL)
		return 1;
	copy = m_strdup(f->value);
	lno = f->line;
	for (line = strtok_r(copy, "\n", &save); line && ret == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		char hash[129], name[257], extra;
		long long size;

		lno++;
		if (strspn(line, " \t") == strlen(line)) {
			lno--;
			continue;
		}
		if (sscanf(line, " %128s %lld %256s %c", hash, &size, name,
		           &extra) != 3 || size < 0)
			ret = put_error_at(err, d->filename, lno, "malformed %s "
			                   "line", field);
		else if (!plain_name(name))
			ret = put_error_at(err, d->filename, lno, "file name "
			                   "'%s' is not a plain file name", name);
		else
			ret = fn(d, field, lno, hash, size, name, err);
	}
	free(copy);
	return ret;
}

static struct dsc_file *
find(struct dsc *d, const char *name)
{
	int i;

	for (i = 0; i < d->nfiles; i++)
		if (strcmp(d->files[i].name, name) == 0)
			return &d->files[i];
	return NULL;
}

static int
add_file(struct dsc *d, const char *field, int line, const char *hash,
         int64_t size, const char *name, struct dpkg_error *err)
{
	struct dsc_file *f;
	const char *slash = strrchr(d->filename, '/');

	(void)field;
	if (!is_hex(hash, 32))
		return put_error_at(err, d->filename, line, "malformed MD5 "
		                    "sum for '%s'", name);
	if (find(d, name))
		return put_error_at(err, d->filename, line, "'%s' is listed "
		                    "twice", name);
	d->files = m_realloc(d->files, sizeof(*f) * (d->nfiles + 1));
	f = &d->files[d->nfiles++];
	memset(f, 0, sizeof(*f));
	f->name = m_strdup(name);
	f->size = size;
	strcpy(f->md5, hash);
	f->path = m_malloc(strlen(d->filename) + strlen(name) + 2);
	sprintf(f->path, "%.*s%s", slash ? (int)(slash - d->filename + 1) : 0,
	        d->filename, name);
	return 0;
}

static int
add_checksum(struct dsc *d, const char *field, int line, const char *hash,
             int64_t size, const char *name, struct dpkg_error *err)
{
	bool sha256 = strcasecmp(field, "Checksums-Sha256") == 0;
	struct dsc_file *f = find(d, name);

	if (f == NULL)
		return put_error_at(err, d->filename, line, "'%s' is in %s but "
		                    "not in Files", name, field);
	if (f->size != size)
		return put_error_at(err, d->filename, line, "'%s' has another "
		                    "size in %s than in Files", name, field);
	if (!is_hex(hash, sha256 ? 64 : 40) ||
	    (sha256 ? f->sha256[0] : f->sha1[0]) != '\0')
		return put_error_at(err, d->filename, line, "malformed or "
		                    "repeated %s line for '%s'", field, name);
	strcpy(sha256 ? f->sha256 : f->sha1, hash);
	return 0;
}

static int
verify(struct dsc *d, struct dpkg_error *err)
{
	int i;

	for (i = 0; i < d->nfiles; i++) {
		struct dsc_file *f = &d->files[i];
		char md5[33], sha1[41], sha256[65];
		int64_t size;

		if (f->sha256[0] == '\0')
			return put_error_at(err, d->filename, 0, "'%s' has no "
			                    "Checksums-Sha256 line", f->name);
		if (dsc_hash_file(f->path, f->name, &size, md5, sha1, sha256,
		                  err) < 0)
			return -1;
		if (size != f->size)
			return put_error_at(err, f->name, 0, "size %lld does not "
			                    "match the .dsc's %lld",
			                    (long long)size, (long long)f->size);
		if (strcmp(md5, f->md5) != 0 || strcmp(sha256, f->sha256) != 0 ||
		    (f->sha1[0] && strcmp(sha1, f->sha1) != 0))
			return put_error_at(err, f->name, 0, "checksum does not "
			                    "match the .dsc");
	}
	return 0;
}

static int
read_small(const char *path, char **text, size_t *len,
           struct dpkg_error *err)
{
	int64_t size = 0;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return put_error_at(err, path, 0, "cannot open: %s",
		                    strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > DSC_FILE_MAX) {
		close(fd);
		return put_error_at(err, path, 0, "is not a regular file of at "
		                    "most %d bytes", DSC_FILE_MAX);
	}
	*text = m_malloc(st.st_size + 1);
	while (size < st.st_size &&
	       (n = read(fd, *text + size, st.st_size - size)) > 0)
		size += n;
	close(fd);
	(*text)[size] = '\0';
	*len = size;
	return 0;
}

static int parse_dsc(struct dsc *d, const char *filename, size_t len,
                     struct dpkg_error *err);

int
dsc_load(struct dsc *d, const char *filename, struct dpkg_error *err)
{
	char *raw = NULL;
	const char *why;
	size_t len, line;

	memset(d, 0, sizeof(*d));
	d->filename = m_strdup(filename);
	if (read_small(filename, &raw, &len, err) < 0)
		return -1;
	d->text = clearsign_text(raw, len, &len, &why, &line);
	free(raw);
	if (d->text == NULL)
		return put_error_at(err, filename, (int)line, "malformed OpenPGP "
		                    "signed message: %s", why);
	return parse_dsc(d, filename, len, err);
}

int
dsc_load_text(struct dsc *d, const char *filename, const char *text,
              size_t len, struct dpkg_error *err)
{
	memset(d, 0, sizeof(*d));
	d->filename = m_strdup(filename);
	d->text = m_malloc(len + 1);
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	return parse_dsc(d, filename, len, err);
}

static int
parse_dsc(struct dsc *d, const char *filename, size_t len,
          struct dpkg_error *err)
{
	struct dpkg_version v;
	struct dpkg_error derr = DPKG_ERROR_OBJECT;
	const struct deb822_field *f;
	const char *why;
	int ret;

	if (deb822_parse(&d->deb822, filename, d->text, len, err) < 0)
		return -1;
	if (d->deb822.nstanzas != 1)
		return put_error_at(err, filename, 0, "is not exactly one stanza");
	d->stanza = &d->deb822.stanzas[0];
	why = deb822_duplicate_field(d->stanza);
	if (why != NULL) {
		int i, line = 0;

		/* The second of the two, where the repeat is. */
		for (i = 0; i < d->stanza->nfields; i++)
			if (d->stanza->fields[i].name == why)
				line = d->stanza->fields[i].line;
		return put_error_at(err, filename, line, "field '%s' is "
		                    "repeated (field names are "
		                    "case-insensitive)", why);
	}
	f = deb822_find(d->stanza, "Format");
	d->format = f ? f->value : NULL;
	f = deb822_find(d->stanza, "Source");
	d->source = f ? f->value : NULL;
	f = deb822_find(d->stanza, "Version");
	d->version = f ? f->value : NULL;
	if (!d->format || !d->source || !d->version)
		return put_error_at(err, filename, 0, "needs Format, Source and "
		                    "Version fields");
	if ((why = pkg_name_is_illegal(d->source)) != NULL)
		return put_error_at(err, filename, deb822_find(d->stanza,
		                    "Source")->line, "invalid source name '%s': "
		                    "%s", d->source, why);
	if (parseversion(&v, d->version, &derr) < 0) {
		put_error_at(err, filename, deb822_find(d->stanza,
		             "Version")->line, "invalid version '%s': %s",
		             d->version, derr.str);
		dpkg_error_destroy(&derr);
		return -1;
	}
	ret = each_line(d, "Files", add_file, err);
	if (ret == 1 || (ret == 0 && d->nfiles == 0))
		return put_error_at(err, filename, 0, "lists no Files");
	if (ret < 0 ||
	    each_line(d, "Checksums-Sha1", add_checksum, err) < 0 ||
	    each_line(d, "Checksums-Sha256", add_checksum, err) < 0)
		return -1;
	return verify(d, err);
}

void
dsc_free(struct dsc *d)
{
	int i;

	for (i = 0; i < d->nfiles; i++) {
		free(d->files[i].name);
		free(d->files[i].path);
	}
	free(d->files);
	deb822_free(&d->deb822);
	free(d->text);
	free(d->filename);
	memset(d, 0, sizeof(*d));
}

const struct dsc_file *
dsc_find_suffix(const struct dsc *d, const char *suffix)
{
	size_t n = strlen(suffix);
	int i;

	for (i = 0; i < d->nfiles; i++) {
		size_t len = strlen(d->files[i].name);

		if (len > n && strcmp(d->files[i].name + len - n, suffix) == 0)
			return &d->files[i];
	}
	return NULL;
}
