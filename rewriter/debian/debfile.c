/*
 * debfile.c: read a binary package (.deb) without unpacking it, with
 * dpkg's own code: libdpkg's ar member headers and tar reader, and the
 * member rules of dpkg-deb.  So the gate sees the members dpkg would
 * unpack, in its order, and refuses what dpkg would refuse.
 *
 * It refuses more than dpkg in three corners no packaging tool reaches:
 * PAX headers in control.tar (dpkg-deb hands that one to tar(1), which
 * reads them; here both go through dpkg's reader), a GNU long name over
 * LONG_NAME_MAX, and a .gz member that is not gzip.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/ar.h>
#include <dpkg/deb-version.h>
#include <dpkg/fdio.h>
#include <dpkg/path.h>
#include <dpkg/tarfn.h>

#include "base/decompress.h"
#include "base/dpkg-catch.h"
#include "base/error-at.h"
#include "debian/debfile.h"

/* A GNU long name or link longer than this is refused before libdpkg
 * allocates it: paths are at most PATH_MAX (4096) bytes. */
#define LONG_NAME_MAX (64 * 1024)
/* debian-binary is "2.0\n"; dpkg reads it whole. */
#define DEBIAN_BINARY_MAX 1024

/* One tar member of the .deb being read through dpkg's tar reader. */
struct tar_reader {
	struct debfile *deb;
	const char *member;	/* "data.tar.xz" */
	struct decompress *z;
	/* The first error of a callback; the reader's own is in tar.err. */
	struct dpkg_error error;
	/* Blocks of a GNU long name still to come through read(). */
	uintmax_t long_blocks;
	size_t cap;
};

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

/* An error of the member being read: "FILE: MEMBER: ...". */
static int DPKG_ATTR_PRINTF(2)
member_error(struct tar_reader *r, const char *fmt, ...)
{
	char what[1024];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	if (r->error.str == NULL)
		dpkg_put_error(&r->error, "%s: %s: %s", r->deb->filename,
		               r->member, what);
	return -1;
}

/*
 * dpkg's tar reader reads every header, and a GNU long name's blocks,
 * through here; a file's data is read by the callbacks.  A long name's
 * size is checked before libdpkg allocates it.
 */
static int
tar_read(struct tar_archive *tar, char *buf, int len)
{
	struct tar_reader *r = tar->ctx;
	ssize_t n = decompress_read(r->z, buf, len, &r->error);

	if (n < 0)
		return -1;
	if (r->long_blocks > 0) {
		r->long_blocks--;
	} else if (n == TARBLKSZ && (buf[156] == TAR_FILETYPE_GNU_LONGNAME ||
	                             buf[156] == TAR_FILETYPE_GNU_LONGLINK)) {
		uintmax_t size;

		errno = 0;
		size = tar_atoul(buf + 124, 12, UINTMAX_MAX);
		if (errno == 0 && size > LONG_NAME_MAX)
			return member_error(r, "a GNU long name of %ju bytes",
			                    size);
		r->long_blocks = (size + TARBLKSZ - 1) / TARBLKSZ;
	}
	return n;
}

/* Read and drop N bytes of the member's data. */
static int
skip_data(struct tar_reader *r, uintmax_t n)
{
	char buf[64 * 1024];

	while (n > 0) {
		size_t want = n < sizeof(buf) ? n : sizeof(buf);
		ssize_t got = decompress_read(r->z, buf, want, &r->error);

		if (got < 0)
			return -1;
		if ((size_t)got < want)
			return member_error(r, "truncated");
		n -= got;
	}
	return 0;
}

/* A file's data, then the padding to the next block, as dpkg reads them;
 * kept in *DATA (NUL-terminated) when DATA is not NULL. */
static int
read_file_data(struct tar_reader *r, const struct tar_entry *te, char **data)
{
	uintmax_t size = te->size, pad = (TARBLKSZ - size % TARBLKSZ) %
	                 TARBLKSZ;

	if (data != NULL) {
		ssize_t got;

		*data = m_malloc(size + 1);
		got = decompress_read(r->z, *data, size, &r->error);
		if (got < 0)
			return -1;
		if ((uintmax_t)got < size)
			return member_error(r, "member '%s': truncated",
			                    te->name);
		(*data)[size] = '\0';
		return skip_data(r, pad);
	}
	return skip_data(r, size + pad);
}

static enum debfile_type
type_of(const struct tar_entry *te)
{
	switch (te->type) {
	case TAR_FILETYPE_FILE:
		return DEBFILE_REGULAR;
	case TAR_FILETYPE_DIR:
		return DEBFILE_DIRECTORY;
	case TAR_FILETYPE_SYMLINK:
		return DEBFILE_SYMLINK;
	case TAR_FILETYPE_HARDLINK:
		return DEBFILE_HARDLINK;
	default:
		return DEBFILE_SPECIAL;
	}
}

/* A member of data.tar, in the order dpkg unpacks them. */
static int
data_member(struct tar_archive *tar, struct tar_entry *te)
{
	struct tar_reader *r = tar->ctx;
	struct debfile *deb = r->deb;
	struct debfile_member m = { 0 };
	const char *reason = NULL;

	m.path = debfile_path(te->name, &reason);
	if (m.path == NULL)
		return member_error(r, "member '%s' %s", te->name, reason);
	m.type = type_of(te);
	m.st_mode = te->stat.mode;
	m.mode = m.st_mode & 07777;
	m.size = te->size;
	if (m.type == DEBFILE_HARDLINK) {
		m.target = debfile_path(te->linkname, &reason);
		if (m.target == NULL) {
			debfile_member_free(&m);
			return member_error(r, "member '%s' is a hard link "
			                    "that leaves the package",
			                    te->name);
		}
	} else if (m.type == DEBFILE_SYMLINK) {
		m.target = m_strdup(te->linkname);
	}
	m.owner = m_strdup(te->stat.uname ? te->stat.uname : "");
	m.group = m_strdup(te->stat.gname ? te->stat.gname : "");
	m.uid = te->stat.uid;
	m.gid = te->stat.gid;
	if (m.type == DEBFILE_REGULAR) {
		bool keep = m.path[0] != '\0' && deb->keep != NULL &&
		            m.size <= DEBFILE_CONTROL_MEMBER_MAX &&
		            deb->keep(&m, deb->keep_ctx);

		if (read_file_data(r, te, keep ? &m.data : NULL) < 0) {
			debfile_member_free(&m);
			return -1;
		}
	}
	/* The root directory ("./") is no member. */
	if (m.path[0] == '\0') {
		debfile_member_free(&m);
		return 0;
	}
	if (deb->nmembers == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		deb->members = m_realloc(deb->members,
		                         r->cap * sizeof(*deb->members));
	}
	deb->members[deb->nmembers++] = m;
	return 0;
}

/* A member of control.tar: the files whole, the rest by name and type. */
static int
control_member(struct tar_archive *tar, struct tar_entry *te)
{
	struct tar_reader *r = tar->ctx;
	struct debfile *deb = r->deb;
	struct debfile_control_member c = { 0 };
	const char *reason = NULL;

	c.name = debfile_path(te->name, &reason);
	if (c.name == NULL)
		return member_error(r, "member '%s' %s", te->name, reason);
	c.type = type_of(te);
	c.mode = te->stat.mode & 07777;
	if (c.type == DEBFILE_REGULAR) {
		if (te->size > DEBFILE_CONTROL_MEMBER_MAX) {
			free(c.name);
			return member_error(r, "member '%s' is too large",
			                    te->name);
		}
		if (read_file_data(r, te, &c.data) < 0) {
			free(c.data);
			free(c.name);
			return -1;
		}
		c.size = te->size;
	}
	if (c.name[0] == '\0') {
		free(c.data);
		free(c.name);
		return 0;
	}
	deb->control_members = m_realloc(deb->control_members,
	                                 (deb->ncontrol_members + 1) *
	                                 sizeof(*deb->control_members));
	deb->control_members[deb->ncontrol_members++] = c;
	return 0;
}

static const struct tar_operations data_ops = {
	.read = tar_read,
	.extract_file = data_member,
	.link = data_member,
	.symlink = data_member,
	.mkdir = data_member,
	.mknod = data_member,
};

static const struct tar_operations control_ops = {
	.read = tar_read,
	.extract_file = control_member,
	.link = control_member,
	.symlink = control_member,
	.mkdir = control_member,
	.mknod = control_member,
};

/*
 * The tar member of SIZE bytes at FD's offset, through dpkg's tar reader,
 * then to the end of its compressed stream: dpkg reads it all, and fails
 * on damage after the tar's end too.
 */
static int
read_tar_member(struct debfile *deb, int fd, const char *member,
                off_t size, const struct tar_operations *ops,
                struct dpkg_error *err)
{
	const char *dot = strchr(member, '.');
	const char *ext = dot ? strchr(dot + 1, '.') : NULL;
	char name[4096 + 64];
	struct tar_reader r;
	struct tar_archive tar;
	int ret;

	snprintf(name, sizeof(name), "%s: %s", deb->filename, member);
	memset(&r, 0, sizeof(r));
	r.deb = deb;
	r.member = member;
	r.cap = deb->nmembers;
	r.z = decompress_new(decompress_type_by_extension(ext ? ext : ""), fd,
	                     size, name);
	memset(&tar, 0, sizeof(tar));
	tar.ops = ops;
	tar.ctx = &r;
	ret = tar_extractor(&tar);
	if (ret == 0) {
		char buf[64 * 1024];
		ssize_t n;

		while ((n = decompress_read(r.z, buf, sizeof(buf),
		                            &r.error)) > 0)
			;
		ret = n < 0 ? -1 : 0;
	}
	if (ret != 0 && r.error.str == NULL)
		dpkg_put_error(&r.error, "%s: %s", name, tar.err.str ?
		               tar.err.str : "unreadable tar archive");
	if (ret != 0)
		dpkg_error_move(err, &r.error);
	dpkg_error_destroy(&r.error);
	dpkg_error_destroy(&tar.err);
	decompress_free(r.z);
	return ret == 0 ? 0 : -1;
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

/* The compressions dpkg-deb takes for each member. */
static const char *const control_exts[] = {
	"", ".gz", ".xz", ".zst", NULL,
};
static const char *const data_exts[] = {
	"", ".gz", ".xz", ".zst", ".bz2", ".lzma", NULL,
};

/* debian-binary, as dpkg-deb reads it: a line, format version 2.x. */
static int
read_debian_binary(struct debfile *deb, int fd, off_t size,
                   struct dpkg_error *err)
{
	char buf[DEBIAN_BINARY_MAX + 1];
	struct deb_version version;
	char *nl;

	if (size > DEBIAN_BINARY_MAX)
		return dpkg_put_error(err, "%s: debian-binary is %jd bytes",
		                      deb->filename, (intmax_t)size);
	if (fd_read(fd, buf, size) != size)
		return dpkg_put_error(err, "%s: debian-binary: truncated",
		                      deb->filename);
	buf[size] = '\0';
	nl = strchr(buf, '\n');
	if (nl == NULL || deb_version_parse(&version, buf) != NULL ||
	    version.major != 2 || (size_t)(nl - buf) >= sizeof(deb->format))
		return dpkg_put_error(err, "%s: not a format 2.x binary "
		                      "package", deb->filename);
	*nl = '\0';
	memcpy(deb->format, buf, nl - buf + 1);
	return 0;
}

struct member_size {
	struct dpkg_ar *ar;
	struct dpkg_ar_hdr *h;
	off_t *size;
};

/* libdpkg reports a bad ar size through ohshit(). */
static void
get_member_size(void *arg)
{
	struct member_size *m = arg;

	*m->size = dpkg_ar_member_get_size(m->ar, m->h);
}

static int
member_size(struct dpkg_ar *ar, struct dpkg_ar_hdr *h, off_t *size,
            struct dpkg_error *err)
{
	struct member_size m = { ar, h, size };
	char msg[ERROR_AT_MAX];

	if (dpkg_catch(get_member_size, &m, msg, sizeof(msg)) < 0)
		return dpkg_put_error(err, "%s: %s", ar->name, msg);
	return 0;
}

/* The members of the ar archive, by dpkg-deb's rules. */
static int
read_ar(struct debfile *deb, struct dpkg_ar *ar, struct dpkg_error *err)
{
	char magic[sizeof(DPKG_AR_MAGIC) - 1];
	off_t at = sizeof(magic);
	int index = 0;

	if (fd_read(ar->fd, magic, sizeof(magic)) != sizeof(magic) ||
	    memcmp(magic, DPKG_AR_MAGIC, sizeof(magic)) != 0)
		return dpkg_put_error(err, "%s: not an ar archive",
		                      deb->filename);
	for (;; index++) {
		struct dpkg_ar_hdr h;
		ssize_t got = fd_read(ar->fd, &h, sizeof(h));
		const char *name = h.ar_name;
		off_t size, end;

		if (got == 0)
			break;
		if (got != sizeof(h))
			return dpkg_put_error(err, "%s: truncated ar member "
			                      "header", deb->filename);
		if (dpkg_ar_member_is_illegal(&h))
			return dpkg_put_error(err, "%s: corrupt ar member "
			                      "header", deb->filename);
		dpkg_ar_normalize_name(&h);
		/* The name is 16 bytes, NUL-padded by the normalising. */
		if (memchr(h.ar_name, '\0', sizeof(h.ar_name)) == NULL)
			return dpkg_put_error(err, "%s: member '%.16s' has no "
			                      "name dpkg reads", deb->filename,
			                      h.ar_name);
		if (member_size(ar, &h, &size, err) < 0)
			return -1;
		at += sizeof(h);
		end = at + size + (size & 1);
		if (end > ar->size && !(end == ar->size + 1 && (size & 1)))
			return dpkg_put_error(err, "%s: member '%s' is "
			                      "truncated", deb->filename, name);
		if (index == 0 && strcmp(name, "debian-binary") != 0)
			return dpkg_put_error(err, "%s: not a binary package: "
			                      "first member is '%s'",
			                      deb->filename, name);
		if (index == 0) {
			if (read_debian_binary(deb, ar->fd, size, err) < 0)
				return -1;
		} else if (deb->control_tar == NULL &&
		           member_is(name, "control.tar", control_exts)) {
			deb->control_tar = m_strdup(name);
			if (read_tar_member(deb, ar->fd, name, size,
			                    &control_ops, err) < 0)
				return -1;
		} else if (deb->control_tar != NULL && deb->data_tar == NULL &&
		           member_is(name, "data.tar", data_exts)) {
			deb->data_tar = m_strdup(name);
			if (read_tar_member(deb, ar->fd, name, size, &data_ops,
			                    err) < 0)
				return -1;
		} else if (name[0] != '_') {
			return dpkg_put_error(err, "%s: unexpected member '%s'",
			                      deb->filename, name);
		}
		if (lseek(ar->fd, end, SEEK_SET) < 0)
			return dpkg_put_errno(err, "%s: cannot seek",
			                      deb->filename);
		at = end;
	}
	if (index == 0)
		return dpkg_put_error(err, "%s: an ar archive without members",
		                      deb->filename);
	if (deb->control_tar == NULL || deb->data_tar == NULL)
		return dpkg_put_error(err, "%s: missing %s member",
		                      deb->filename, deb->control_tar ?
		                      "data.tar" : "control.tar");
	return 0;
}

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
	struct dpkg_ar ar;
	struct stat st;
	int ret;

	memset(deb, 0, sizeof(*deb));
	deb->filename = m_strdup(filename);
	deb->keep = keep;
	deb->keep_ctx = ctx;
	memset(&ar, 0, sizeof(ar));
	ar.name = filename;
	ar.fd = open(filename, O_RDONLY | O_CLOEXEC);
	if (ar.fd < 0 || fstat(ar.fd, &st) < 0)
		ret = dpkg_put_errno(err, "%s: cannot read", filename);
	else if (!S_ISREG(st.st_mode))
		ret = dpkg_put_error(err, "%s: not a regular file", filename);
	else {
		ar.size = st.st_size;
		ret = read_ar(deb, &ar, err);
	}
	if (ar.fd >= 0)
		close(ar.fd);
	if (ret == 0)
		ret = debfile_parse_control(deb, err);
	if (ret < 0) {
		debfile_destroy(deb);
		return -1;
	}
	return 0;
}
