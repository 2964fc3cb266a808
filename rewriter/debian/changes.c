/*
 * changes.c: read an upload's .changes and check the files it lists.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5.h>
#include <sha2.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "debian/changes.h"
#include "debian/clearsign.h"

static char *
xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (d == NULL)
		abort();
	return d;
}

static bool
is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Split LINE into at most MAX blank-separated words; returns the count. */
static int
split_words(char *line, char **words, int max)
{
	int n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(line, " \t", &save); w && n <= max;
	     w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	return n;
}

static bool
parse_size(const char *s, int64_t *size)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*size = v;
	return true;
}

static const char *
check_name(const char *name)
{
	if (strchr(name, '/') != NULL)
		return "is not a plain file name";
	if (name[0] == '.' || name[0] == '\0')
		return "starts with '.'";
	return NULL;
}

static struct changes_file *
find_file(struct changes *ch, const char *name)
{
	size_t i;

	for (i = 0; i < ch->nfiles; i++)
		if (strcmp(ch->files[i].name, name) == 0)
			return &ch->files[i];
	return NULL;
}

static char *
path_beside(const char *changes, const char *name)
{
	const char *slash = strrchr(changes, '/');
	size_t dirlen = slash ? (size_t)(slash - changes + 1) : 0;
	char *p = malloc(dirlen + strlen(name) + 1);

	if (p == NULL)
		abort();
	memcpy(p, changes, dirlen);
	strcpy(p + dirlen, name);
	return p;
}

static int
parse_files(struct changes *ch, const char *value, struct dpkg_error *err)
{
	char *copy = xstrndup(value, strlen(value)), *save = NULL, *line;
	int ret = 0;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w[6];
		struct changes_file *f;
		const char *reason;

		if (split_words(line, w, 5) != 5 || strlen(w[0]) != 32 ||
		    !is_hex(w[0], 32)) {
			ret = dpkg_put_error(err, "%s: bad line in Files: '%s'",
			                     ch->filename, line);
			break;
		}
		if ((reason = check_name(w[4])) != NULL) {
			ret = dpkg_put_error(err, "%s: file name '%s' %s",
			                     ch->filename, w[4], reason);
			break;
		}
		if (find_file(ch, w[4]) != NULL) {
			ret = dpkg_put_error(err, "%s: '%s' listed twice in "
			                     "Files", ch->filename, w[4]);
			break;
		}
		ch->files = realloc(ch->files,
		                    (ch->nfiles + 1) * sizeof(*ch->files));
		if (ch->files == NULL)
			abort();
		f = &ch->files[ch->nfiles++];
		memset(f, 0, sizeof(*f));
		f->name = xstrndup(w[4], strlen(w[4]));
		f->path = path_beside(ch->filename, f->name);
		f->section = xstrndup(w[2], strlen(w[2]));
		f->priority = xstrndup(w[3], strlen(w[3]));
		memcpy(f->md5, w[0], 33);
		if (!parse_size(w[1], &f->size)) {
			ret = dpkg_put_error(err, "%s: bad size '%s' for '%s'",
			                     ch->filename, w[1], f->name);
			break;
		}
	}
	free(copy);
	return ret;
}

static int
parse_sha256(struct changes *ch, const char *value, struct dpkg_error *err)
{
	char *copy = xstrndup(value, strlen(value)), *save = NULL, *line;
	int ret = 0;
	size_t i;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w[4];
		struct changes_file *f;
		int64_t size;

		if (split_words(line, w, 3) != 3 || strlen(w[0]) != 64 ||
		    !is_hex(w[0], 64) || !parse_size(w[1], &size)) {
			ret = dpkg_put_error(err, "%s: bad line in "
			                     "Checksums-Sha256: '%s'",
			                     ch->filename, line);
			break;
		}
		f = find_file(ch, w[2]);
		if (f == NULL) {
			ret = dpkg_put_error(err, "%s: '%s' is in "
			                     "Checksums-Sha256 but not in Files",
			                     ch->filename, w[2]);
			break;
		}
		if (f->size != size) {
			ret = dpkg_put_error(err, "%s: Files and "
			                     "Checksums-Sha256 disagree on the "
			                     "size of '%s'", ch->filename, w[2]);
			break;
		}
		memcpy(f->sha256, w[0], 65);
	}
	free(copy);
	for (i = 0; ret == 0 && i < ch->nfiles; i++)
		if (ch->files[i].sha256[0] == '\0')
			ret = dpkg_put_error(err, "%s: '%s' is missing from "
			                     "Checksums-Sha256", ch->filename,
			                     ch->files[i].name);
	return ret;
}

static int
verify_file(struct changes *ch, struct changes_file *f,
            struct dpkg_error *err)
{
	char buf[64 * 1024], md5[MD5_DIGEST_STRING_LENGTH];
	char sha[SHA256_DIGEST_STRING_LENGTH];
	MD5_CTX mc;
	SHA2_CTX sc;
	struct stat st;
	ssize_t n;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return dpkg_put_error(err, "%s: cannot open '%s': %s",
		                      ch->filename, f->name, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size != f->size) {
		close(fd);
		return dpkg_put_error(err, "%s: size of '%s' is not %" PRId64,
		                      ch->filename, f->name, f->size);
	}
	MD5Init(&mc);
	SHA256Init(&sc);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		MD5Update(&mc, (const uint8_t *)buf, n);
		SHA256Update(&sc, (const uint8_t *)buf, n);
	}
	close(fd);
	if (n < 0)
		return dpkg_put_error(err, "%s: cannot read '%s': %s",
		                      ch->filename, f->name, strerror(errno));
	MD5End(&mc, md5);
	SHA256End(&sc, sha);
	if (strcmp(md5, f->md5) != 0 || strcmp(sha, f->sha256) != 0)
		return dpkg_put_error(err, "%s: checksum mismatch for '%s'",
		                      ch->filename, f->name);
	return 0;
}

static int
read_text(const char *filename, char **text, size_t *len,
          struct dpkg_error *err)
{
	FILE *fp = fopen(filename, "re");
	size_t cap = 0, n;

	*text = NULL;
	*len = 0;
	if (fp == NULL)
		return dpkg_put_error(err, "%s: %s", filename, strerror(errno));
	do {
		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 16384;
			if (cap > (64 << 20)) {
				fclose(fp);
				return dpkg_put_error(err, "%s: too large",
				                      filename);
			}
			*text = realloc(*text, cap);
			if (*text == NULL)
				abort();
		}
		n = fread(*text + *len, 1, cap - *len, fp);
		*len += n;
	} while (n > 0);
	if (ferror(fp)) {
		fclose(fp);
		return dpkg_put_error(err, "%s: %s", filename, strerror(errno));
	}
	fclose(fp);
	return 0;
}

static int
parse_changes(struct changes *ch, struct dpkg_error *err)
{
	const char *files, *sha256, *reason, *source;
	struct dpkg_version v;
	struct dpkg_error verr = DPKG_ERROR_INIT;
	size_t i, n;

	if (ch->deb822.nstanzas != 1)
		return dpkg_put_error(err, "%s: is not exactly one stanza",
		                      ch->filename);
	ch->stanza = &ch->deb822.stanzas[0];
	if ((reason = deb822_duplicate_field(ch->stanza)) != NULL)
		return dpkg_put_error(err, "%s: duplicate field %s",
		                      ch->filename, reason);
	source = changes_field(ch, "Source");
	ch->version = changes_field(ch, "Version");
	files = changes_field(ch, "Files");
	sha256 = changes_field(ch, "Checksums-Sha256");
	if (source == NULL || ch->version == NULL || files == NULL ||
	    sha256 == NULL)
		return dpkg_put_error(err, "%s: missing %s field", ch->filename,
		                      !source ? "Source" :
		                      !ch->version ? "Version" :
		                      !files ? "Files" : "Checksums-Sha256");
	/* deb-changes(5): "Source: NAME [(VERSION)]", the version given
	 * when the binaries' differs (binNMUs). */
	n = strcspn(source, " \t");
	ch->source = m_strndup(source, n);
	source += n + strspn(source + n, " \t");
	if (*source != '\0') {
		size_t vlen = strlen(source);

		if (vlen < 3 || source[0] != '(' || source[vlen - 1] != ')')
			return dpkg_put_error(err, "%s: Source '%s': not NAME "
			                      "or NAME (VERSION)", ch->filename,
			                      changes_field(ch, "Source"));
		ch->source_version = m_strndup(source + 1, vlen - 2);
		if (parseversion(&v, ch->source_version, &verr) < 0) {
			dpkg_put_error(err, "%s: Source version '%s': %s",
			               ch->filename, ch->source_version, verr.str);
			dpkg_error_destroy(&verr);
			return -1;
		}
	}
	if ((reason = pkg_name_is_illegal(ch->source)) != NULL)
		return dpkg_put_error(err, "%s: Source '%s': %s", ch->filename,
		                      ch->source, reason);
	if (parseversion(&v, ch->version, &verr) < 0) {
		dpkg_put_error(err, "%s: Version '%s': %s", ch->filename,
		               ch->version, verr.str);
		dpkg_error_destroy(&verr);
		return -1;
	}
	if (parse_files(ch, files, err) < 0 ||
	    parse_sha256(ch, sha256, err) < 0)
		return -1;
	if (ch->nfiles == 0)
		return dpkg_put_error(err, "%s: lists no files", ch->filename);
	for (i = 0; i < ch->nfiles; i++)
		if (verify_file(ch, &ch->files[i], err) < 0)
			return -1;
	return 0;
}

int
changes_read(struct changes *ch, const char *filename,
             struct dpkg_error *err)
{
	const char *why;
	char *text;
	size_t len, line;
	int ret;

	memset(ch, 0, sizeof(*ch));
	ch->filename = strdup(filename);
	if (ch->filename == NULL)
		abort();
	if (read_text(filename, &text, &len, err) < 0) {
		free(text);
		changes_destroy(ch);
		return -1;
	}
	ch->text = clearsign_text(text, len, &len, &why, &line);
	free(text);
	if (ch->text == NULL)
		ret = dpkg_put_error(err, "%s:%zu: malformed OpenPGP signed "
		                     "message: %s", filename, line, why);
	else if (deb822_parse(&ch->deb822, ch->filename, ch->text, len,
	                      err) < 0)
		ret = -1;
	else
		ret = parse_changes(ch, err);
	if (ret < 0) {
		changes_destroy(ch);
		return -1;
	}
	return 0;
}

int
changes_read_text(struct changes *ch, const char *filename, const char *text,
                  size_t len, struct dpkg_error *err)
{
	int ret;

	memset(ch, 0, sizeof(*ch));
	ch->filename = strdup(filename);
	ch->text = malloc(len + 1);
	if (ch->filename == NULL || ch->text == NULL)
		abort();
	memcpy(ch->text, text, len);
	ch->text[len] = '\0';
	if (deb822_parse(&ch->deb822, ch->filename, ch->text, len, err) < 0)
		ret = -1;
	else
		ret = parse_changes(ch, err);
	if (ret < 0) {
		changes_destroy(ch);
		return -1;
	}
	return 0;
}

const char *
changes_field(const struct changes *ch, const char *name)
{
	const struct deb822_field *f;

	if (ch->stanza == NULL)
		return NULL;
	f = deb822_find(ch->stanza, name);
	return f ? f->value : NULL;
}

bool
changes_file_is_deb(const struct changes_file *f)
{
	size_t len = strlen(f->name);

	return len > 4 && strcmp(f->name + len - 4, ".deb") == 0;
}

void
changes_destroy(struct changes *ch)
{
	size_t i;

	for (i = 0; i < ch->nfiles; i++) {
		free(ch->files[i].name);
		free(ch->files[i].path);
		free(ch->files[i].section);
		free(ch->files[i].priority);
	}
	free(ch->files);
	free(ch->source);
	free(ch->source_version);
	deb822_free(&ch->deb822);
	free(ch->text);
	free(ch->filename);
	memset(ch, 0, sizeof(*ch));
}
