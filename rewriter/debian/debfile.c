/*
 * debfile.c: read a binary package (.deb) without unpacking it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/arch.h>
#include <dpkg/path.h>

#include "debian/debfile.h"

/* The outer archive, read from by the inner (tar) archive. */
struct ar_stream {
	struct archive *ar;
	char buf[64 * 1024];
};


static const char *
archive_reason(struct archive *a)
{
	const char *s = archive_error_string(a);

	return s ? s : "unknown error";
}

static la_ssize_t
ar_stream_read(struct archive *inner, void *client, const void **buf)
{
	struct ar_stream *s = client;
	la_ssize_t n = archive_read_data(s->ar, s->buf, sizeof(s->buf));

	if (n < 0)
		archive_set_error(inner, EIO, "%s",
		                  archive_reason(s->ar));
	*buf = s->buf;
	return n;
}

static enum debfile_type
type_of(mode_t filetype, bool hardlink)
{
	if (hardlink)
		return DEBFILE_HARDLINK;
	switch (filetype) {
	case AE_IFREG:
		return DEBFILE_REGULAR;
	case AE_IFDIR:
		return DEBFILE_DIRECTORY;
	case AE_IFLNK:
		return DEBFILE_SYMLINK;
	default:
		return DEBFILE_SPECIAL;
	}
}

char *
debfile_path(const char *name, const char **reason)
{
	const char *p;
	char *d;

	d = m_strdup(path_skip_slash_dotslash(name));
	path_trim_slash_slashdot(d);
	if (strcmp(d, ".") == 0 || strcmp(d, "/") == 0)
		d[0] = '\0';
	for (p = d; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			*reason = "has an empty, '.' or '..' component";
			free(d);
			return NULL;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return d;
}

static int
keep_data(struct debfile *deb, struct archive *inner, struct debfile_member *m,
          struct dpkg_error *err)
{
	la_ssize_t n;

	m->data = malloc(m->size + 1);
	if (m->data == NULL)
		abort();
	n = archive_read_data(inner, m->data, m->size);
	if (n != m->size)
		return dpkg_put_error(err, "%s: %s: member '%s': %s",
		                      deb->filename, deb->data_tar, m->path,
		                      n < 0 ? archive_reason(inner) :
		                      "truncated");
	m->data[m->size] = '\0';
	return 0;
}

/*
 * Whether the member just read came with PAX extended headers: dpkg's
 * tar reader refuses them, and their path or link would not be the one
 * dpkg reads from the header.
 */
static bool
is_pax(struct archive *inner)
{
	int f = archive_format(inner);

	return f == ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE ||
	       f == ARCHIVE_FORMAT_TAR_PAX_RESTRICTED;
}

static int
read_data_tar(struct debfile *deb, struct archive *inner,
              struct dpkg_error *err)
{
	struct archive_entry *e;
	size_t cap = 0;
	int r;

	while ((r = archive_read_next_header(inner, &e)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		struct debfile_member m = { 0 };
		const char *reason = NULL, *link;

		if (is_pax(inner))
			return dpkg_put_error(err, "%s: %s: member '%s' has a "
			                      "PAX header, which dpkg does not "
			                      "read", deb->filename,
			                      deb->data_tar,
			                      archive_entry_pathname(e));
		m.path = debfile_path(archive_entry_pathname(e) ?
		                        archive_entry_pathname(e) : "", &reason);
		if (m.path == NULL)
			return dpkg_put_error(err, "%s: %s: member '%s' %s",
			                      deb->filename, deb->data_tar,
			                      archive_entry_pathname(e), reason);
		if (m.path[0] == '\0') {
			free(m.path);
			continue;
		}
		link = archive_entry_hardlink(e);
		m.type = type_of(archive_entry_filetype(e), link != NULL);
		m.st_mode = archive_entry_mode(e);
		m.mode = m.st_mode & 07777;
		m.size = archive_entry_size(e);
		if (link != NULL) {
			m.target = debfile_path(link, &reason);
			if (m.target == NULL) {
				reason = "is a hard link that leaves the package";
				debfile_member_free(&m);
				return dpkg_put_error(err, "%s: %s: member '%s' %s",
				                      deb->filename, deb->data_tar,
				                      archive_entry_pathname(e),
				                      reason);
			}
		} else if (archive_entry_symlink(e) != NULL) {
			m.target = m_strdup(archive_entry_symlink(e));
		}
		m.owner = m_strdup(archive_entry_uname(e) ?
		                  archive_entry_uname(e) : "");
		m.group = m_strdup(archive_entry_gname(e) ?
		                  archive_entry_gname(e) : "");
		m.uid = archive_entry_uid(e);
		m.gid = archive_entry_gid(e);
		if (deb->nmembers == cap) {
			cap = cap ? cap * 2 : 64;
			deb->members = realloc(deb->members,
			                       cap * sizeof(*deb->members));
			if (deb->members == NULL)
				abort();
		}
		deb->members[deb->nmembers++] = m;
		if (m.type == DEBFILE_REGULAR && deb->keep != NULL &&
		    m.size >= 0 && m.size <= DEBFILE_CONTROL_MEMBER_MAX &&
		    deb->keep(&m, deb->keep_ctx)) {
			if (keep_data(deb, inner, &deb->members[deb->nmembers - 1],
			              err) < 0)
				return -1;
			continue;
		}
		/* Reading the data is what finds truncation and corruption. */
		if (archive_read_data_skip(inner) != ARCHIVE_OK)
			return dpkg_put_error(err, "%s: %s: %s", deb->filename,
			                      deb->data_tar,
			                      archive_reason(inner));
	}
	if (r != ARCHIVE_EOF)
		return dpkg_put_error(err, "%s: %s: %s", deb->filename,
		                      deb->data_tar, archive_reason(inner));
	return 0;
}

static int
read_control_member(struct debfile *deb, struct archive *inner,
                    struct archive_entry *e, struct dpkg_error *err)
{
	struct debfile_control_member c = { 0 };
	const char *reason = NULL;
	char *name = debfile_path(archive_entry_pathname(e) ?
	                            archive_entry_pathname(e) : "", &reason);
	struct debfile_control_member *grown;

	if (name == NULL)
		return dpkg_put_error(err, "%s: %s: member '%s' %s",
		                      deb->filename, deb->control_tar,
		                      archive_entry_pathname(e), reason);
	if (name[0] == '\0') {
		free(name);
		return 0;
	}
	c.name = name;
	c.type = type_of(archive_entry_filetype(e),
	                 archive_entry_hardlink(e) != NULL);
	c.mode = archive_entry_mode(e) & 07777;
	if (c.type == DEBFILE_REGULAR) {
		la_int64_t size = archive_entry_size(e);
		la_ssize_t n;

		if (size < 0 || size > DEBFILE_CONTROL_MEMBER_MAX) {
			dpkg_put_error(err, "%s: %s: member '%s' is too large",
			               deb->filename, deb->control_tar, c.name);
			free(name);
			return -1;
		}
		c.data = malloc(size + 1);
		if (c.data == NULL)
			abort();
		n = archive_read_data(inner, c.data, size);
		if (n != size) {
			free(c.data);
			free(name);
			return dpkg_put_error(err, "%s: %s: member '%s': %s",
			                      deb->filename, deb->control_tar,
			                      archive_entry_pathname(e),
			                      n < 0 ? archive_reason(inner) :
			                      "truncated");
		}
		c.data[size] = '\0';
		c.size = size;
	}
	grown = realloc(deb->control_members,
	                (deb->ncontrol_members + 1) * sizeof(*grown));
	if (grown == NULL)
		abort();
	deb->control_members = grown;
	deb->control_members[deb->ncontrol_members++] = c;
	return 0;
}

static int
read_control_tar(struct debfile *deb, struct archive *inner,
                 struct dpkg_error *err)
{
	struct archive_entry *e;
	int r;

	while ((r = archive_read_next_header(inner, &e)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN)
		if (read_control_member(deb, inner, e, err) < 0)
			return -1;
	if (r != ARCHIVE_EOF)
		return dpkg_put_error(err, "%s: %s: %s", deb->filename,
		                      deb->control_tar, archive_reason(inner));
	return 0;
}

/* Read the current ar member as a tar archive with READER. */
static int
read_inner_tar(struct debfile *deb, struct archive *ar, const char *member,
               int (*reader)(struct debfile *, struct archive *,
                             struct dpkg_error *),
               struct dpkg_error *err)
{
	struct ar_stream *s = malloc(sizeof(*s));
	struct archive *inner = archive_read_new();
	int ret;

	if (s == NULL || inner == NULL)
		abort();
	s->ar = ar;
	archive_read_support_format_tar(inner);
	archive_read_support_format_gnutar(inner);
	archive_read_support_filter_all(inner);
	if (archive_read_open(inner, s, NULL, ar_stream_read, NULL) !=
	    ARCHIVE_OK)
		ret = dpkg_put_error(err, "%s: %s: %s", deb->filename, member,
		                     archive_reason(inner));
	else
		ret = reader(deb, inner, err);
	archive_read_free(inner);
	free(s);
	return ret;
}

static bool
member_is(const char *name, const char *base, const char *const *exts)
{
	size_t len = strlen(base);
	int i;

	if (strncmp(name, base, len) != 0)
		return false;
	for (i = 0; exts[i]; i++)
		if (strcmp(name + len, exts[i]) == 0)
			return true;
	return false;
}

static const char *const control_exts[] = {
	"", ".gz", ".xz", ".zst", NULL,
};
static const char *const data_exts[] = {
	"", ".gz", ".xz", ".zst", ".bz2", ".lzma", NULL,
};

static int
read_debian_binary(struct debfile *deb, struct archive *ar,
                   struct dpkg_error *err)
{
	char buf[sizeof(deb->format)];
	la_ssize_t n = archive_read_data(ar, buf, sizeof(buf) - 1);

	if (n < 0)
		return dpkg_put_error(err, "%s: debian-binary: %s",
		                      deb->filename, archive_reason(ar));
	buf[n] = '\0';
	if (strncmp(buf, "2.", 2) != 0 || n < 4 || buf[n - 1] != '\n')
		return dpkg_put_error(err, "%s: not a format 2.x binary "
		                      "package", deb->filename);
	buf[n - 1] = '\0';
	memcpy(deb->format, buf, n);
	return 0;
}

static int
read_ar(struct debfile *deb, struct archive *ar, struct dpkg_error *err)
{
	struct archive_entry *e;
	int r, index = 0;

	while ((r = archive_read_next_header(ar, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);

		if (name == NULL)
			name = "";
		if (index == 0 && strcmp(name, "debian-binary") != 0)
			return dpkg_put_error(err, "%s: not a binary package: "
			                      "first member is '%s'",
			                      deb->filename, name);
		if (index == 0) {
			if (read_debian_binary(deb, ar, err) < 0)
				return -1;
		} else if (deb->control_tar == NULL &&
		           member_is(name, "control.tar", control_exts)) {
			deb->control_tar = m_strdup(name);
			if (read_inner_tar(deb, ar, name, read_control_tar,
			                   err) < 0)
				return -1;
		} else if (deb->control_tar != NULL && deb->data_tar == NULL &&
		           member_is(name, "data.tar", data_exts)) {
			deb->data_tar = m_strdup(name);
			if (read_inner_tar(deb, ar, name, read_data_tar,
			                   err) < 0)
				return -1;
		} else if (name[0] != '_') {
			return dpkg_put_error(err, "%s: unexpected member '%s'",
			                      deb->filename, name);
		}
		index++;
	}
	if (r != ARCHIVE_EOF)
		return dpkg_put_error(err, "%s: %s", deb->filename,
		                      index == 0 ? "not an ar archive" :
		                      archive_reason(ar));
	if (deb->control_tar == NULL || deb->data_tar == NULL)
		return dpkg_put_error(err, "%s: missing %s member",
		                      deb->filename, deb->control_tar ?
		                      "data.tar" : "control.tar");
	return 0;
}

/* "name" or "name (version)" into its parts, validated. */
int
debfile_read(struct debfile *deb, const char *filename,
             struct dpkg_error *err)
{
	return debfile_read_keep(deb, filename, NULL, NULL, err);
}

int
debfile_read_keep(struct debfile *deb, const char *filename,
                  bool (*keep)(const struct debfile_member *m,
                               void *ctx), void *ctx,
                  struct dpkg_error *err)
{
	struct archive *ar;
	int ret;

	memset(deb, 0, sizeof(*deb));
	deb->filename = m_strdup(filename);
	deb->keep = keep;
	deb->keep_ctx = ctx;
	ar = archive_read_new();
	if (ar == NULL)
		abort();
	archive_read_support_format_ar(ar);
	if (access(filename, R_OK) < 0)
		ret = dpkg_put_errno(err, "%s: cannot read", filename);
	else if (archive_read_open_filename(ar, filename, 64 * 1024) !=
	         ARCHIVE_OK)
		ret = dpkg_put_error(err, "%s: not an ar archive (%s)",
		                     filename, archive_reason(ar));
	else
		ret = read_ar(deb, ar, err);
	archive_read_free(ar);
	if (ret == 0)
		ret = debfile_parse_control(deb, err);
	if (ret < 0) {
		debfile_destroy(deb);
		return -1;
	}
	return 0;
}

