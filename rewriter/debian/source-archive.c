/*
 * source-archive.c: source tarballs read safely, written reproducibly.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include <dpkg/dpkg.h>

#include "debian/source-archive.h"

struct names {
	char **v;
	int n;
};

static void
names_add(struct names *ns, const char *name)
{
	ns->v = m_realloc(ns->v, sizeof(char *) * (ns->n + 1));
	ns->v[ns->n++] = m_strdup(name);
}

static void
names_free(struct names *ns)
{
	int i;

	for (i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
	ns->v = NULL;
	ns->n = 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
names_sort(struct names *ns)
{
	if (ns->n > 0)
		qsort(ns->v, ns->n, sizeof(char *), name_cmp);
}

static bool
names_has(const struct names *ns, const char *name)
{
	return ns->n > 0 && bsearch(&name, ns->v, ns->n, sizeof(char *), name_cmp) != NULL;
}

/* A hard link member, its target normalised and as written, and how many
 * regular files came before it: tar links only to a file met before. */
struct hardlink {
	char *path, *target, *raw;
	int before;
};

struct hardlinks {
	struct hardlink *v;
	int n;
};

static void
hardlinks_free(struct hardlinks *hs)
{
	int i;

	for (i = 0; i < hs->n; i++) {
		free(hs->v[i].path);
		free(hs->v[i].target);
		free(hs->v[i].raw);
	}
	free(hs->v);
}

/* "./a//b/" → "a/b"; NULL for an absolute name or one with "..". */
static char *
normalize(const char *name, const char **why)
{
	char *out = m_malloc(strlen(name) + 1), *o = out;
	const char *p = name;

	if (name[0] == '/') {
		*why = "has an absolute name";
		free(out);
		return NULL;
	}
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			*why = "has a '..' component";
			free(out);
			return NULL;
		}
		if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (o != out)
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n;
		p += strspn(p, "/");
	}
	*o = '\0';
	return out;
}

/* How many directories a normalised NAME lies in. */
static int
depth_of(const char *name)
{
	int depth = 0;

	for (; *name; name++)
		if (*name == '/')
			depth++;
	return depth;
}

/* Whether the symbolic link NAME -> TARGET stays inside the tree. */
static bool
link_inside(const char *name, const char *target)
{
	int depth = 0;
	const char *p;

	if (target[0] == '/' || target[0] == '\0')
		return false;
	for (p = name; *p; p++)
		if (*p == '/')
			depth++;
	for (p = target; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += strspn(p, "/");
	}
	return true;
}

static struct archive *
open_read(const char *path, const char *name, struct dpkg_error *err)
{
	struct archive *a = archive_read_new();

	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_lzma(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		put_error_at(err, name, 0, "cannot read tarball: %s",
		             archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

static int
check_member(struct archive_entry *e, const char *name, const char *prefix,
             struct names *members, struct names *dirs, struct names *links,
             struct names *files, struct hardlinks *hardlinks,
             int64_t *total, struct dpkg_error *err)
{
	const char *why = NULL, *target;
	char *path = normalize(archive_entry_pathname(e), &why);
	mode_t type = archive_entry_filetype(e);
	int ret = -1;

	if (path == NULL)
		return put_error_at(err, name, 0, "member '%s' %s; refused",
		                    archive_entry_pathname(e), why);
	if (path[0] == '\0') {
		free(path);
		return 0;
	}
	if (strlen(path) > SOURCE_PATH_MAX) {
		put_error_at(err, name, 0, "member '%s' has a name longer than "
		             "%d bytes; refused", path, SOURCE_PATH_MAX);
		goto out;
	}
	if (depth_of(path) > SOURCE_DEPTH_MAX) {
		put_error_at(err, name, 0, "member '%s' lies more than %d "
		             "directories deep; refused", path, SOURCE_DEPTH_MAX);
		goto out;
	}
	if (prefix && strcmp(path, prefix) != 0 &&
	    !(strncmp(path, prefix, strlen(prefix)) == 0 &&
	      path[strlen(prefix)] == '/')) {
		put_error_at(err, name, 0, "member '%s' is outside %s/; refused",
		             path, prefix);
		goto out;
	}
	if ((target = archive_entry_hardlink(e)) != NULL) {
		char *t = normalize(target, &why);

		if (t == NULL) {
			put_error_at(err, name, 0, "hard link '%s' points "
			             "outside the tree or to no earlier file "
			             "('%s'); refused", path, target);
			goto out;
		}
		/* Checked once every file is known: check_hardlinks(). */
		hardlinks->v = m_realloc(hardlinks->v, sizeof(*hardlinks->v) *
		                         (hardlinks->n + 1));
		hardlinks->v[hardlinks->n++] = (struct hardlink){
			m_strdup(path), t, m_strdup(target), files->n };
	} else if (type == AE_IFLNK) {
		target = archive_entry_symlink(e);
		if (target == NULL || !link_inside(path, target)) {
			put_error_at(err, name, 0, "symbolic link '%s' points "
			             "outside the tree ('%s'); refused", path,
			             target ? target : "");
			goto out;
		}
		names_add(links, path);
	} else if (type == AE_IFREG) {
		names_add(files, path);
	} else if (type != AE_IFDIR) {
		put_error_at(err, name, 0, "member '%s' is a device node, FIFO "
		             "or socket; refused", path);
		goto out;
	}
	if (archive_entry_size(e) > SOURCE_MEMBER_MAX) {
		put_error_at(err, name, 0, "member '%s' is larger than %lld "
		             "bytes; refused", path, (long long)SOURCE_MEMBER_MAX);
		goto out;
	}
	*total += archive_entry_size(e);
	if (*total > SOURCE_TOTAL_MAX) {
		put_error_at(err, name, 0, "members add up to more than %lld "
		             "bytes; refused", (long long)SOURCE_TOTAL_MAX);
		goto out;
	}
	if (members->n + dirs->n >= SOURCE_MEMBERS_MAX) {
		put_error_at(err, name, 0, "has more than %d members; refused",
		             SOURCE_MEMBERS_MAX);
		goto out;
	}
	names_add(type == AE_IFDIR && archive_entry_hardlink(e) == NULL ?
	          dirs : members, path);
	ret = 0;
out:
	free(path);
	return ret;
}

struct file_at {
	const char *name;
	int index;
};

static int
file_at_cmp(const void *a, const void *b)
{
	const struct file_at *fa = a, *fb = b;
	int c = strcmp(fa->name, fb->name);

	return c != 0 ? c : (fa->index > fb->index) - (fa->index < fb->index);
}

/*
 * Every hard link names a regular file met before it.  Sorted, not
 * compared with every file: 150,000 links would be quadratic.
 */
static int
check_hardlinks(const char *name, const struct names *files,
                const struct hardlinks *hs, struct dpkg_error *err)
{
	struct file_at *by_name, key;
	int i, ret = 0;

	if (hs->n == 0)
		return 0;
	by_name = m_malloc(sizeof(*by_name) * (files->n + 1));
	for (i = 0; i < files->n; i++)
		by_name[i] = (struct file_at){ files->v[i], i };
	if (files->n > 0)
		qsort(by_name, files->n, sizeof(*by_name), file_at_cmp);
	for (i = 0; i < hs->n && ret == 0; i++) {
		int lo = 0, hi = files->n;

		/* The first file of that name: the lowest index. */
		key = (struct file_at){ hs->v[i].target, -1 };
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;

			if (file_at_cmp(&by_name[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == files->n ||
		    strcmp(by_name[lo].name, hs->v[i].target) != 0 ||
		    by_name[lo].index >= hs->v[i].before)
			ret = put_error_at(err, name, 0, "hard link '%s' points "
			                   "outside the tree or to no earlier "
			                   "file ('%s'); refused", hs->v[i].path,
			                   hs->v[i].raw);
	}
	free(by_name);
	return ret;
}

/* Whether a member of NS lies below a symbolic link of LINKS. */
static int
check_below_links(const char *name, const struct names *ns,
                  const struct names *links, struct dpkg_error *err)
{
	int i;

	for (i = 0; i < ns->n && links->n; i++) {
		char *p = m_strdup(ns->v[i]), *slash;

		while ((slash = strrchr(p, '/')) != NULL) {
			*slash = '\0';
			if (names_has(links, p)) {
				put_error_at(err, name, 0, "member '%s' is reached "
				             "through the symbolic link '%s'; "
				             "refused", ns->v[i], p);
				free(p);
				return -1;
			}
		}
		free(p);
	}
	return 0;
}

/* How many times NAME is in the sorted NS, from index *AT on. */
static int
names_count_from(const struct names *ns, int *at, const char *name)
{
	int n = 0;

	while (*at < ns->n && strcmp(ns->v[*at], name) < 0)
		(*at)++;
	while (*at + n < ns->n && strcmp(ns->v[*at + n], name) == 0)
		n++;
	return n;
}

/*
 * No path twice but a regular file, and none reached through a symbolic
 * link.  A regular file listed again replaces the one before, as tar
 * and dpkg-source make it (crate tarballs list Cargo.toml.orig twice): the
 * last one wins, and either is a plain file in the tree.  A directory
 * listed again is only a directory again (mupdf's repacked tarball lists
 * thirdparty/extract twice): tar makes it once.  A symbolic or hard link
 * listed twice, or a path that is a directory and something else, are
 * refused: what tar leaves, or where it writes, depends on the order.
 */
static int
check_tree(const char *name, struct names *members, struct names *dirs,
           struct names *links, struct names *files, struct dpkg_error *err)
{
	int i, n, at = 0;

	names_sort(members);
	names_sort(dirs);
	names_sort(links);
	names_sort(files);
	for (i = 0; i < members->n; i += n) {
		for (n = 1; i + n < members->n &&
		     strcmp(members->v[i], members->v[i + n]) == 0; n++)
			;
		if (n > 1 && names_count_from(files, &at, members->v[i]) != n)
			return put_error_at(err, name, 0, "member '%s' is listed "
			                    "twice, not only as a regular file; "
			                    "refused", members->v[i]);
	}
	for (i = 0; i < dirs->n; i++)
		if (names_has(members, dirs->v[i]))
			return put_error_at(err, name, 0, "member '%s' is listed "
			                    "twice; refused", dirs->v[i]);
	if (check_below_links(name, members, links, err) < 0 ||
	    check_below_links(name, dirs, links, err) < 0)
		return -1;
	return 0;
}

int
source_archive_check(const char *path, const char *name, const char *prefix,
                     struct dpkg_error *err)
{
	struct names members = { 0 }, dirs = { 0 }, links = { 0 };
	struct names files = { 0 };
	struct hardlinks hardlinks = { 0 };
	struct archive *a = open_read(path, name, err);
	struct archive_entry *e;
	int64_t total = 0;
	int ret = 0, r;

	if (a == NULL)
		return -1;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		ret = check_member(e, name, prefix, &members, &dirs, &links,
		                   &files, &hardlinks, &total, err);
		if (ret < 0)
			break;
	}
	if (ret == 0)
		ret = check_hardlinks(name, &files, &hardlinks, err);
	if (ret == 0 && r != ARCHIVE_EOF)
		ret = put_error_at(err, name, 0, "malformed tarball: %s",
		                   archive_error_string(a));
	if (ret == 0 && members.n + dirs.n == 0)
		ret = put_error_at(err, name, 0, "is an empty tarball");
	if (ret == 0)
		ret = check_tree(name, &members, &dirs, &links, &files, err);
	archive_read_free(a);
	names_free(&members);
	names_free(&dirs);
	names_free(&links);
	names_free(&files);
	hardlinks_free(&hardlinks);
	return ret;
}

int
source_archive_has_top_file(const char *path, const char *name,
                            const char *const *wanted, bool *found,
                            struct dpkg_error *err)
{
	struct archive *a = open_read(path, name, err);
	struct archive_entry *e;
	int ret = 0, r;

	*found = false;
	if (a == NULL)
		return -1;
	while (!*found && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *member = archive_entry_pathname(e), *base;
		size_t i;

		if (member == NULL || archive_entry_filetype(e) != AE_IFREG)
			continue;
		member += strncmp(member, "./", 2) == 0 ? 2 : 0;
		/* TOP/FILE, or FILE in a tarball without a top directory. */
		base = strchr(member, '/');
		base = base == NULL ? member : base + 1;
		if (strchr(base, '/') != NULL)
			continue;
		for (i = 0; wanted[i] && !*found; i++)
			*found = strcmp(base, wanted[i]) == 0;
	}
	if (!*found && r != ARCHIVE_EOF)
		ret = put_error_at(err, name, 0, "malformed tarball: %s",
		                   archive_error_string(a));
	archive_read_free(a);
	return ret;
}

static bool
is_regular_file(struct archive_entry *e)
{
	return archive_entry_filetype(e) == AE_IFREG &&
	       archive_entry_hardlink(e) == NULL;
}

int
source_archive_extract(const char *path, const char *name, const char *dest,
                       struct dpkg_error *err)
{
	/* The members were checked; libarchive checks again. */
	const int secure = ARCHIVE_EXTRACT_SECURE_SYMLINKS |
	                   ARCHIVE_EXTRACT_SECURE_NODOTDOT |
	                   ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS;
	struct archive *a = open_read(path, name, err), *w;
	struct archive_entry *e;
	int cwd, ret = 0, r;

	if (a == NULL)
		return -1;
	cwd = open(".", O_RDONLY | O_DIRECTORY);
	if (cwd < 0 || chdir(dest) < 0) {
		archive_read_free(a);
		if (cwd >= 0)
			close(cwd);
		return put_error_at(err, dest, 0, "cannot enter: %s",
		                    strerror(errno));
	}
	w = archive_write_disk_new();
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const void *buf;
		size_t size;
		la_int64_t off;

		archive_entry_set_perm(e, archive_entry_perm(e) & 0777);
		/* A regular file listed again replaces the one before, as
		 * tar makes it (source_archive_check() allowed nothing else
		 * twice); anything else never replaces what is there. */
		archive_write_disk_set_options(w, secure |
		                               (is_regular_file(e) ?
		                                ARCHIVE_EXTRACT_UNLINK :
		                                ARCHIVE_EXTRACT_NO_OVERWRITE));
		if (archive_write_header(w, e) != ARCHIVE_OK) {
			ret = put_error_at(err, name, 0, "cannot extract '%s': %s",
			                   archive_entry_pathname(e),
			                   archive_error_string(w));
			break;
		}
		while ((r = archive_read_data_block(a, &buf, &size, &off)) ==
		       ARCHIVE_OK)
			if (archive_write_data_block(w, buf, size, off) !=
			    ARCHIVE_OK)
				break;
		if (r != ARCHIVE_EOF) {
			ret = put_error_at(err, name, 0, "cannot extract '%s': %s",
			                   archive_entry_pathname(e),
			                   archive_error_string(a));
			break;
		}
		archive_write_finish_entry(w);
	}
	if (ret == 0 && r != ARCHIVE_EOF && r != ARCHIVE_OK)
		ret = put_error_at(err, name, 0, "malformed tarball: %s",
		                   archive_error_string(a));
	archive_write_close(w);
	archive_write_free(w);
	archive_read_free(a);
	if (fchdir(cwd) < 0 && ret == 0)
		ret = put_error_at(err, dest, 0, "cannot leave: %s",
		                   strerror(errno));
	close(cwd);
	return ret;
}

static void
walk(const char *root, const char *rel, struct names *out)
{
	char *dirpath = m_malloc(strlen(root) + strlen(rel) + 2);
	struct dirent *de;
	DIR *dir;

	sprintf(dirpath, "%s%s%s", root, rel[0] ? "/" : "", rel);
	dir = opendir(dirpath);
	free(dirpath);
	if (dir == NULL)
		return;
	while ((de = readdir(dir)) != NULL) {
		char *child;
		struct stat st;
		char *full;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		child = m_malloc(strlen(rel) + strlen(de->d_name) + 2);
		sprintf(child, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
		names_add(out, child);
		full = m_malloc(strlen(root) + strlen(child) + 2);
		sprintf(full, "%s/%s", root, child);
		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode))
			walk(root, child, out);
		free(full);
		free(child);
	}
	closedir(dir);
}

static int
pack_member(struct archive *a, const char *dir, const char *rel,
            const char *top, time_t mtime, const char *name,
            struct dpkg_error *err)
{
	struct archive_entry *e = archive_entry_new();
	char *full = m_malloc(strlen(dir) + strlen(rel) + 2);
	char *member = m_malloc((top ? strlen(top) : 0) + strlen(rel) + 2);
	char buf[65536];
	struct stat st;
	int ret = 0;

	sprintf(full, "%s/%s", dir, rel);
	sprintf(member, "%s%s%s", top ? top : "", top ? "/" : "", rel);
	if (lstat(full, &st) < 0) {
		ret = put_error_at(err, rel, 0, "cannot stat: %s", strerror(errno));
		goto out;
	}
	archive_entry_set_pathname(e, member);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_mtime(e, mtime, 0);
	if (S_ISDIR(st.st_mode)) {
		archive_entry_set_filetype(e, AE_IFDIR);
		archive_entry_set_perm(e, 0755);
	} else if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(full, buf, sizeof(buf) - 1);

		buf[n < 0 ? 0 : n] = '\0';
		archive_entry_set_filetype(e, AE_IFLNK);
		archive_entry_set_perm(e, 0777);
		archive_entry_set_symlink(e, buf);
	} else if (S_ISREG(st.st_mode)) {
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, st.st_mode & 0111 ? 0755 : 0644);
		archive_entry_set_size(e, st.st_size);
	} else {
		ret = put_error_at(err, rel, 0, "is not a file, directory or "
		                   "symbolic link");
		goto out;
	}
	if (archive_write_header(a, e) != ARCHIVE_OK) {
		ret = put_error_at(err, name, 0, "cannot write: %s",
		                   archive_error_string(a));
		goto out;
	}
	if (S_ISREG(st.st_mode)) {
		int fd = open(full, O_RDONLY | O_NOFOLLOW);
		ssize_t n;

		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			archive_write_data(a, buf, n);
		if (fd >= 0)
			close(fd);
	}
out:
	archive_entry_free(e);
	free(full);
	free(member);
	return ret;
}

int
source_archive_pack(const char *path, const char *dir, const char *subdir,
                    const char *top, time_t mtime,
                    enum source_compression compression,
                    struct dpkg_error *err)
{
	struct names members = { 0 };
	struct archive *a = archive_write_new();
	int i, ret = 0;

	if (subdir) {
		names_add(&members, subdir);
		walk(dir, subdir, &members);
	} else {
		walk(dir, "", &members);
	}
	names_sort(&members);
	archive_write_set_format_gnutar(a);
	if (compression == SOURCE_XZ || compression == SOURCE_XZ_FAST) {
		archive_write_add_filter_xz(a);
		if (compression == SOURCE_XZ_FAST)
			archive_write_set_filter_option(a, "xz",
			                                "compression-level", "3");
	} else {
		archive_write_add_filter_gzip(a);
		/* No timestamp in the gzip header: the same bytes every run. */
		archive_write_set_filter_option(a, "gzip", "timestamp", NULL);
	}
	archive_write_set_bytes_in_last_block(a, 1);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK) {
		ret = put_error_at(err, path, 0, "cannot create: %s",
		                   archive_error_string(a));
		goto out;
	}
	if (top) {
		/* The top directory itself, as dpkg-source writes it. */
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, top);
		archive_entry_set_filetype(e, AE_IFDIR);
		archive_entry_set_perm(e, 0755);
		archive_entry_set_mtime(e, mtime, 0);
		archive_write_header(a, e);
		archive_entry_free(e);
	}
	for (i = 0; i < members.n && ret == 0; i++)
		ret = pack_member(a, dir, members.v[i], top, mtime, path, err);
	if (archive_write_close(a) != ARCHIVE_OK && ret == 0)
		ret = put_error_at(err, path, 0, "cannot write: %s",
		                   archive_error_string(a));
out:
	archive_write_free(a);
	names_free(&members);
	return ret;
}
