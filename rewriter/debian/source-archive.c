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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include <dpkg/dpkg.h>

#include "base/strings.h"
#include "debian/source-archive.h"

struct names {
	char **v;
	int n, size;
};

static void
names_add(struct names *ns, const char *name)
{
	/* Grown by half, not by one: 200,000 members, 200,000 reallocs. */
	if (ns->n == ns->size) {
		ns->size = ns->size < 64 ? 64 : ns->size + ns->size / 2;
		ns->v = m_realloc(ns->v, sizeof(char *) * ns->size);
	}
	ns->v[ns->n++] = m_strdup(name);
}

static void
names_free(struct names *ns)
{
	strings_free(ns->v, ns->n);
	ns->v = NULL;
	ns->n = ns->size = 0;
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
	int n, size;
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
		if (hardlinks->n == hardlinks->size) {
			hardlinks->size = hardlinks->size < 64 ? 64 :
			                  hardlinks->size + hardlinks->size / 2;
			hardlinks->v = m_realloc(hardlinks->v,
			                         sizeof(*hardlinks->v) *
			                         hardlinks->size);
		}
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

/* What source_archive_check() gathers, member by member. */
struct check_state {
	struct names members, dirs, links, files;
	struct hardlinks hardlinks;
	int64_t total;
};

static int
check_next(struct check_state *cs, struct archive_entry *e, const char *name,
           const char *prefix, struct dpkg_error *err)
{
	return check_member(e, name, prefix, &cs->members, &cs->dirs,
	                    &cs->links, &cs->files, &cs->hardlinks, &cs->total,
	                    err);
}

/* The checks of the whole tarball, once A has no more headers (R). */
static int
check_end(struct check_state *cs, struct archive *a, int r, const char *name,
          struct dpkg_error *err)
{
	int ret = check_hardlinks(name, &cs->files, &cs->hardlinks, err);

	if (ret == 0 && r != ARCHIVE_EOF)
		ret = put_error_at(err, name, 0, "malformed tarball: %s",
		                   archive_error_string(a));
	if (ret == 0 && cs->members.n + cs->dirs.n == 0)
		ret = put_error_at(err, name, 0, "is an empty tarball");
	if (ret == 0)
		ret = check_tree(name, &cs->members, &cs->dirs, &cs->links,
		                 &cs->files, err);
	return ret;
}

static void
check_state_free(struct check_state *cs)
{
	names_free(&cs->members);
	names_free(&cs->dirs);
	names_free(&cs->links);
	names_free(&cs->files);
	hardlinks_free(&cs->hardlinks);
}

int
source_archive_check(const char *path, const char *name, const char *prefix,
                     struct dpkg_error *err)
{
	struct check_state cs = { 0 };
	struct archive *a = open_read(path, name, err);
	struct archive_entry *e;
	int ret = 0, r;

	if (a == NULL)
		return -1;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK)
		if ((ret = check_next(&cs, e, name, prefix, err)) < 0)
			break;
	if (ret == 0)
		ret = check_end(&cs, a, r, name, err);
	archive_read_free(a);
	check_state_free(&cs);
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

/* The options every member is written to disk with. */
static int
disk_options(struct archive_entry *e)
{
	/* The members were checked; libarchive checks again. */
	const int secure = ARCHIVE_EXTRACT_SECURE_SYMLINKS |
	                   ARCHIVE_EXTRACT_SECURE_NODOTDOT |
	                   ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS;

	/* A regular file listed again replaces the one before, as tar makes
	 * it (source_archive_check() allowed nothing else twice); anything
	 * else never replaces what is there. */
	return secure | (is_regular_file(e) ? ARCHIVE_EXTRACT_UNLINK :
	                 ARCHIVE_EXTRACT_NO_OVERWRITE);
}

/* Write the member E of A, its header just read, to disk through W. */
static int
extract_member(struct archive *a, struct archive *w, struct archive_entry *e,
               const char *name, struct dpkg_error *err)
{
	const void *buf;
	size_t size;
	la_int64_t off;
	int r;

	archive_entry_set_perm(e, archive_entry_perm(e) & 0777);
	archive_write_disk_set_options(w, disk_options(e));
	if (archive_write_header(w, e) != ARCHIVE_OK)
		return put_error_at(err, name, 0, "cannot extract '%s': %s",
		                    archive_entry_pathname(e),
		                    archive_error_string(w));
	while ((r = archive_read_data_block(a, &buf, &size, &off)) ==
	       ARCHIVE_OK)
		if (archive_write_data_block(w, buf, size, off) != ARCHIVE_OK)
			break;
	if (r != ARCHIVE_EOF)
		return put_error_at(err, name, 0, "cannot extract '%s': %s",
		                    archive_entry_pathname(e),
		                    archive_error_string(a));
	archive_write_finish_entry(w);
	return 0;
}

/* Open PATH for reading and enter DEST, keeping the way back in *CWD. */
static struct archive *
open_into(const char *path, const char *name, const char *dest, int *cwd,
          struct dpkg_error *err)
{
	struct archive *a = open_read(path, name, err);

	if (a == NULL)
		return NULL;
	*cwd = open(".", O_RDONLY | O_DIRECTORY);
	if (*cwd < 0 || chdir(dest) < 0) {
		put_error_at(err, dest, 0, "cannot enter: %s", strerror(errno));
		archive_read_free(a);
		if (*cwd >= 0)
			close(*cwd);
		return NULL;
	}
	return a;
}

/* Close A and W, and go back to CWD. */
static int
close_into(struct archive *a, struct archive *w, int cwd, const char *dest,
           int ret, struct dpkg_error *err)
{
	archive_write_close(w);
	archive_write_free(w);
	archive_read_free(a);
	if (fchdir(cwd) < 0 && ret == 0)
		ret = put_error_at(err, dest, 0, "cannot leave: %s",
		                   strerror(errno));
	close(cwd);
	return ret;
}

int
source_archive_extract(const char *path, const char *name, const char *dest,
                       struct dpkg_error *err)
{
	struct archive *a, *w;
	struct archive_entry *e;
	int cwd, ret = 0, r;

	a = open_into(path, name, dest, &cwd, err);
	if (a == NULL)
		return -1;
	w = archive_write_disk_new();
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK)
		if ((ret = extract_member(a, w, e, name, err)) < 0)
			break;
	if (ret == 0 && r != ARCHIVE_EOF)
		ret = put_error_at(err, name, 0, "malformed tarball: %s",
		                   archive_error_string(a));
	return close_into(a, w, cwd, dest, ret, err);
}

/*
 * A held member as it would be on disk.  A hard link is a regular file
 * there, the data and mode of the file it names when it was made.
 */
struct held_member {
	char *name;
	int seq;		/* its place in the tarball */
	mode_t type;		/* AE_IFREG, AE_IFDIR or AE_IFLNK */
	char *target;		/* a symbolic link's; a hard link's, until
				 * resolve_hardlinks() */
	bool exec;		/* a regular file with an execute bit */
	int64_t offset, size;	/* a regular file's data in the spill */
};

struct source_held {
	struct held_member *v;
	int n;
	FILE *spill;
	int64_t spill_size;	/* with the holes at its end */
	int64_t spill_at;	/* where the next byte written goes */
	char *map;		/* the spill, mapped by source_archive_pack() */
};

void
source_held_free(struct source_held *held)
{
	int i;

	if (held == NULL)
		return;
	for (i = 0; i < held->n; i++) {
		free(held->v[i].name);
		free(held->v[i].target);
	}
	free(held->v);
	if (held->map)
		munmap(held->map, held->spill_size);
	if (held->spill)
		fclose(held->spill);
	free(held);
}

static struct held_member *
held_add(struct source_held *held, char *name, mode_t type, int seq)
{
	struct held_member *m;

	if (held->n % 1024 == 0)
		held->v = m_realloc(held->v, sizeof(*held->v) *
		                    (held->n + 1024));
	m = &held->v[held->n];
	*m = (struct held_member){ .name = name, .seq = seq, .type = type };
	held->n++;
	return m;
}

/*
 * The data of the member E of A to the end of the spill, as write_disk
 * would leave it: the size the header says, holes as holes (sought over,
 * not written: a sparse member of 500 MB costs no more than on disk).
 */
static int
hold_data(struct source_held *held, int64_t *offset, int64_t *held_size,
          struct archive *a, struct archive_entry *e, const char *name,
          struct dpkg_error *err)
{
	const void *buf;
	size_t size;
	la_int64_t off;
	int64_t at = 0, end = archive_entry_size(e);
	int r;

	*offset = held->spill_size;
	while ((r = archive_read_data_block(a, &buf, &size, &off)) ==
	       ARCHIVE_OK) {
		if (off < at)
			return put_error_at(err, name, 0, "malformed tarball: "
			                    "'%s' goes back in its data",
			                    archive_entry_pathname(e));
		at = off;
		if (at + (int64_t)size > end)
			size = at < end ? (size_t)(end - at) : 0;
		if (size == 0)
			continue;
		/* Sought only over a hole: a seek flushes the buffer. */
		if (*offset + at != held->spill_at &&
		    fseeko(held->spill, *offset + at, SEEK_SET) < 0)
			break;
		if (fwrite(buf, 1, size, held->spill) != size)
			break;
		at += size;
		held->spill_at = *offset + at;
	}
	if (r == ARCHIVE_OK)
		return put_error_at(err, name, 0, "cannot hold '%s': %s",
		                    archive_entry_pathname(e), strerror(errno));
	/* Read as it is checked: cut short, the tarball is malformed. */
	if (r != ARCHIVE_EOF)
		return put_error_at(err, name, 0, "malformed tarball: '%s': %s",
		                    archive_entry_pathname(e),
		                    archive_error_string(a));
	*held_size = end;
	held->spill_size += end;
	return 0;
}

/* Whether a held member could not be told apart from the tree as tar
 * would leave it: see source_archive_extract_held(). */
static bool
held_not_plain(struct archive_entry *e, const char *path,
               source_unpacked_fn *unpacked)
{
	const char *target = archive_entry_hardlink(e), *p;
	const char *why;
	bool inside = false;
	char *t;

	if (target != NULL) {
		t = normalize(target, &why);
		inside = t != NULL && !unpacked(t);
		free(t);
		if (!inside || archive_entry_size(e) > 0)
			return true;
	} else if (archive_entry_filetype(e) == AE_IFLNK) {
		/* symlink() takes no longer target. */
		if (archive_entry_symlink(e) == NULL ||
		    strlen(archive_entry_symlink(e)) >= PATH_MAX)
			return true;
	}
	if (archive_entry_filetype(e) != AE_IFREG && archive_entry_size(e) > 0)
		return true;
	for (p = path; *p; p += strspn(p, "/")) {
		if (strcspn(p, "/") > NAME_MAX)
			return true;
		p += strcspn(p, "/");
	}
	return false;
}

/* The directories above the held PATH that are unpacked, made as
 * libarchive makes a member's parents; *LAST the latest made. */
static int
make_parents(const char *path, source_unpacked_fn *unpacked, char **last)
{
	char *dir = m_strdup(path), *slash = strrchr(dir, '/');

	for (; slash != NULL; slash = strrchr(dir, '/')) {
		*slash = '\0';
		if (unpacked(dir))
			break;
	}
	if (slash == NULL || (*last && strcmp(*last, dir) == 0)) {
		free(dir);
		return 0;
	}
	free(*last);
	*last = dir;
	for (slash = strchr(dir, '/'); ; slash = strchr(slash + 1, '/')) {
		struct stat st;

		if (slash)
			*slash = '\0';
		if (mkdir(dir, 0777) < 0 &&
		    (errno != EEXIST || lstat(dir, &st) < 0 ||
		     !S_ISDIR(st.st_mode))) {
			if (slash)
				*slash = '/';
			return -1;
		}
		if (slash == NULL)
			return 0;
		*slash = '/';
	}
}

static int
held_cmp(const void *a, const void *b)
{
	const struct held_member *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Each hard link takes the data and mode of the last file of its name
 * before it, as link() finds it (a file listed again after the link
 * replaces only the name); sorted, as check_hardlinks() does.
 */
static int
resolve_hardlinks(struct source_held *held, const char *name,
                  struct dpkg_error *err)
{
	struct held_member *files, key;
	int i, nfiles = 0;

	files = m_malloc(sizeof(*files) * (held->n + 1));
	for (i = 0; i < held->n; i++)
		if (held->v[i].type == AE_IFREG && held->v[i].target == NULL)
			files[nfiles++] = held->v[i];
	qsort(files, nfiles, sizeof(*files), held_cmp);
	for (i = 0; i < held->n; i++) {
		struct held_member *m = &held->v[i];
		int lo = 0, hi = nfiles;

		if (m->type != AE_IFREG || m->target == NULL)
			continue;
		/* The first file at or after the link, then the one before. */
		key = (struct held_member){ .name = m->target, .seq = m->seq };
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;

			if (held_cmp(&files[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0 || strcmp(files[lo - 1].name, m->target) != 0) {
			free(files);
			return put_error_at(err, name, 0, "hard link '%s' points "
			                    "to no earlier file ('%s'); refused",
			                    m->name, m->target);
		}
		m->exec = files[lo - 1].exec;
		m->offset = files[lo - 1].offset;
		m->size = files[lo - 1].size;
		free(m->target);
		m->target = NULL;
	}
	free(files);
	return 0;
}

/* The held member named NAME in the sorted HELD, or NULL. */
static const struct held_member *
held_find(const struct source_held *held, const char *name)
{
	int lo = 0, hi = held->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(held->v[mid].name, name);

		if (c == 0)
			return &held->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * The directories above the held member NAME, the first NLISTED of HELD
 * sorted: those held and not listed are added; 1 when one of them is not
 * a directory, or the unpacked one above them no longer is (an unpacked
 * member listed after could have replaced it, being empty there).
 * *CHECKED is the unpacked directory last seen to be one.
 */
static int
settle_above(struct source_held *held, int nlisted, const char *name,
             source_unpacked_fn *unpacked, char **checked)
{
	const struct held_member *above;
	char *dir = m_strdup(name), *slash;
	struct stat st;
	int ret = 0;

	while (ret == 0 && (slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (unpacked(dir)) {
			if (*checked && strcmp(*checked, dir) == 0)
				break;
			if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
				ret = 1;
			free(*checked);
			*checked = m_strdup(dir);
			break;
		}
		/* Looked up among the listed: HELD grows. */
		above = held_find(&(struct source_held){ .v = held->v,
		                                         .n = nlisted }, dir);
		if (above != NULL && above->type != AE_IFDIR)
			ret = 1;
		else if (above == NULL && (held->n == nlisted ||
		         strcmp(held->v[held->n - 1].name, dir) != 0))
			held_add(held, m_strdup(dir), AE_IFDIR, INT_MAX);
	}
	free(dir);
	return ret;
}

/* Keep the last of each name in the sorted HELD. */
static void
held_unique(struct source_held *held)
{
	int i, n = 0;

	for (i = 0; i < held->n; i++) {
		if (i + 1 < held->n &&
		    strcmp(held->v[i].name, held->v[i + 1].name) == 0) {
			free(held->v[i].name);
			free(held->v[i].target);
			continue;
		}
		held->v[n++] = held->v[i];
	}
	held->n = n;
}

/*
 * The held members as the tree would have them: sorted by name, the
 * last of a name only, the directories above them that are not unpacked
 * added.  Returns 1 when one lies below something not a directory.
 */
static int
settle_held(struct source_held *held, source_unpacked_fn *unpacked)
{
	char *checked = NULL;
	int i, nlisted, ret = 0;

	/* None held (every member unpacked): held->v is NULL. */
	if (held->n == 0)
		return 0;
	qsort(held->v, held->n, sizeof(*held->v), held_cmp);
	held_unique(held);
	nlisted = held->n;
	for (i = 0; i < nlisted && ret == 0; i++)
		ret = settle_above(held, nlisted, held->v[i].name, unpacked,
		                   &checked);
	free(checked);
	/* The directories added, once each. */
	if (held->n > nlisted) {
		qsort(held->v, held->n, sizeof(*held->v), held_cmp);
		held_unique(held);
	}
	return ret;
}

/* A spill file in DIR, unlinked at once: gone with the descriptor. */
static FILE *
open_spill(const char *dir, struct dpkg_error *err)
{
	char *path;
	FILE *fp = NULL;
	int fd;

	m_asprintf(&path, "%s/.held.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd >= 0) {
		unlink(path);
		fp = fdopen(fd, "w+");
		if (fp == NULL)
			close(fd);
	}
	if (fp == NULL)
		put_error_at(err, dir, 0, "cannot create a file: %s",
		             strerror(errno));
	free(path);
	return fp;
}

/* The spill, mapped for source_archive_pack(): read back, 100,000
 * members of a byte each would be as many calls. */
static int
map_spill(struct source_held *held, const char *dest, struct dpkg_error *err)
{
	void *map;

	/* The holes at its end too. */
	if (fflush(held->spill) != 0 ||
	    ftruncate(fileno(held->spill), held->spill_size) < 0)
		return put_error_at(err, dest, 0, "cannot write: %s",
		                    strerror(errno));
	if (held->spill_size == 0)
		return 0;
	map = mmap(NULL, held->spill_size, PROT_READ, MAP_PRIVATE,
	           fileno(held->spill), 0);
	if (map == MAP_FAILED)
		return put_error_at(err, dest, 0, "cannot map the held "
		                    "members: %s", strerror(errno));
	held->map = map;
	return 0;
}

/* The umask write_disk applies to what it creates. */
static mode_t
current_umask(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return mask;
}

/* A member to unpack, kept until the whole tarball is checked. */
struct pending {
	struct archive_entry *e;
	int seq;
	int64_t offset, size;	/* its data in the spill */
};

struct pendings {
	struct pending *v;
	int n;
};

static void
pendings_free(struct pendings *ps)
{
	int i;

	for (i = 0; i < ps->n; i++)
		archive_entry_free(ps->v[i].e);
	free(ps->v);
}

/* Keep the member E of A (SEQ in the tarball) for unpack_pending(). */
static int
add_pending(struct pendings *ps, struct source_held *held, struct archive *a,
            struct archive_entry *e, int seq, const char *name,
            struct dpkg_error *err)
{
	struct pending *p;

	if (ps->n % 64 == 0)
		ps->v = m_realloc(ps->v, sizeof(*ps->v) * (ps->n + 64));
	p = &ps->v[ps->n++];
	*p = (struct pending){ .e = archive_entry_clone(e), .seq = seq };
	return hold_data(held, &p->offset, &p->size, a, e, name, err);
}

/* Write the pending P to disk through W, as extract_member() does. */
static int
unpack_pending(struct archive *w, const struct source_held *held,
               const struct pending *p, const char *name,
               struct dpkg_error *err)
{
	struct archive_entry *e = p->e;

	static const char zeros[65536];
	int64_t at;

	archive_entry_set_perm(e, archive_entry_perm(e) & 0777);
	archive_write_disk_set_options(w, disk_options(e));
	if (archive_write_header(w, e) != ARCHIVE_OK)
		goto fail;
	/* Blocks of zeros left out, as holes: write_disk ends the file
	 * at its size, and a sparse member stays so. */
	for (at = 0; at < p->size; at += (int64_t)sizeof(zeros)) {
		size_t n = p->size - at < (int64_t)sizeof(zeros) ?
		           (size_t)(p->size - at) : sizeof(zeros);
		const char *data = held->map + p->offset + at;

		if (memcmp(data, zeros, n) != 0 &&
		    archive_write_data_block(w, data, n, at) != ARCHIVE_OK)
			goto fail;
	}
	archive_write_finish_entry(w);
	return 0;
fail:
	return put_error_at(err, name, 0, "cannot extract '%s': %s",
	                    archive_entry_pathname(e), archive_error_string(w));
}

/*
 * Once the tarball is checked: the pending members to disk and the
 * directories above the held ones made, in the order of the tarball, as
 * source_archive_extract() would have met them.  Returns 1 when a
 * directory above a held member cannot be made.
 */
static int
unpack_checked(struct archive *w, struct source_held *held,
               const struct pendings *ps, source_unpacked_fn *unpacked,
               const char *name, struct dpkg_error *err)
{
	char *last = NULL;
	int i = 0, j = 0, ret = 0;

	while (ret == 0 && (i < held->n || j < ps->n)) {
		if (j == ps->n || (i < held->n && held->v[i].seq < ps->v[j].seq))
			ret = make_parents(held->v[i++].name, unpacked,
			                   &last) < 0 ? 1 : 0;
		else
			ret = unpack_pending(w, held, &ps->v[j++], name, err);
	}
	free(last);
	return ret;
}

int
source_archive_extract_held(const char *path, const char *name,
                            const char *prefix, const char *dest,
                            source_unpacked_fn *unpacked,
                            struct source_held **heldp,
                            struct dpkg_error *err)
{
	struct source_held *held = m_malloc(sizeof(*held));
	struct check_state cs = { 0 };
	struct pendings ps = { 0 };
	struct archive *a, *w;
	struct archive_entry *e;
	mode_t mask = current_umask();
	bool plain = true;
	const char *why;
	int cwd, seq, ret = 0, r;

	*heldp = NULL;
	*held = (struct source_held){ 0 };
	held->spill = open_spill(dest, err);
	a = held->spill ? open_into(path, name, dest, &cwd, err) : NULL;
	if (a == NULL) {
		source_held_free(held);
		return -1;
	}
	w = archive_write_disk_new();
	for (seq = 0; ret == 0 &&
	     (r = archive_read_next_header(a, &e)) == ARCHIVE_OK; seq++) {
		const char *target = archive_entry_hardlink(e);
		struct held_member *m;
		char *member, *t;

		ret = check_next(&cs, e, name, prefix, err);
		/* Once not plain, only checked: unpacked whole after. */
		if (ret < 0 || !plain)
			continue;
		member = normalize(archive_entry_pathname(e), &why);
		if (unpacked(member)) {
			/* A link to a held file: it is not on disk. */
			t = target ? normalize(target, &why) : NULL;
			plain = target == NULL || (t != NULL && unpacked(t));
			free(t);
			free(member);
			ret = add_pending(&ps, held, a, e, seq, name, err);
			continue;
		}
		plain = !held_not_plain(e, member, unpacked);
		if (!plain) {
			free(member);
		} else if (target) {
			m = held_add(held, member, AE_IFREG, seq);
			m->target = normalize(target, &why);
		} else if (archive_entry_filetype(e) == AE_IFLNK) {
			m = held_add(held, member, AE_IFLNK, seq);
			m->target = m_strdup(archive_entry_symlink(e));
		} else if (archive_entry_filetype(e) == AE_IFDIR) {
			held_add(held, member, AE_IFDIR, seq);
		} else {
			m = held_add(held, member, AE_IFREG, seq);
			m->exec = (archive_entry_perm(e) & ~mask & 0111) != 0;
			ret = hold_data(held, &m->offset, &m->size, a, e, name,
			                err);
		}
	}
	if (ret == 0)
		ret = check_end(&cs, a, r, name, err);
	if (ret == 0 && !plain)
		ret = 1;
	if (ret == 0)
		ret = map_spill(held, dest, err);
	if (ret == 0)
		ret = unpack_checked(w, held, &ps, unpacked, name, err);
	if (ret == 0)
		ret = resolve_hardlinks(held, name, err);
	if (ret == 0)
		ret = settle_held(held, unpacked);
	check_state_free(&cs);
	pendings_free(&ps);
	ret = close_into(a, w, cwd, dest, ret, err);
	if (ret == 0)
		*heldp = held;
	else
		source_held_free(held);
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

/* A new entry for the member REL (under TOP, when not NULL). */
static struct archive_entry *
new_entry(const char *rel, const char *top, time_t mtime)
{
	struct archive_entry *e = archive_entry_new();
	char *member;

	m_asprintf(&member, "%s%s%s", top ? top : "", top ? "/" : "", rel);
	archive_entry_set_pathname(e, member);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_mtime(e, mtime, 0);
	free(member);
	return e;
}

static int
pack_member(struct archive *a, const char *dir, const char *rel,
            const char *top, time_t mtime, const char *name,
            struct dpkg_error *err)
{
	struct archive_entry *e = new_entry(rel, top, mtime);
	char *full = m_malloc(strlen(dir) + strlen(rel) + 2);
	char buf[65536];
	struct stat st;
	int ret = 0;

	sprintf(full, "%s/%s", dir, rel);
	if (lstat(full, &st) < 0) {
		ret = put_error_at(err, rel, 0, "cannot stat: %s", strerror(errno));
		goto out;
	}
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
	return ret;
}

/* The held member M, as pack_member() writes it from disk. */
static int
pack_held(struct archive *a, const struct source_held *held,
          const struct held_member *m, const char *top, time_t mtime,
          const char *name, struct dpkg_error *err)
{
	struct archive_entry *e = new_entry(m->name, top, mtime);
	int ret = 0;

	archive_entry_set_filetype(e, m->type);
	if (m->type == AE_IFDIR) {
		archive_entry_set_perm(e, 0755);
	} else if (m->type == AE_IFLNK) {
		archive_entry_set_perm(e, 0777);
		archive_entry_set_symlink(e, m->target);
	} else {
		archive_entry_set_perm(e, m->exec ? 0755 : 0644);
		archive_entry_set_size(e, m->size);
	}
	if (archive_write_header(a, e) != ARCHIVE_OK)
		ret = put_error_at(err, name, 0, "cannot write: %s",
		                   archive_error_string(a));
	else if (m->type == AE_IFREG && m->size > 0)
		archive_write_data(a, held->map + m->offset, m->size);
	archive_entry_free(e);
	return ret;
}

/* A member of the new tarball: from the tree, or held. */
struct pack_item {
	const char *rel;
	const struct held_member *held;
};

/* Whether REL is SUBDIR or lies in it (any REL when SUBDIR is NULL). */
static bool
in_subdir(const char *rel, const char *subdir)
{
	size_t n = subdir ? strlen(subdir) : 0;

	return subdir == NULL || (strncmp(rel, subdir, n) == 0 &&
	                          (rel[n] == '\0' || rel[n] == '/'));
}

/* The members of the tree (sorted), and the held ones (sorted by
 * settle_held()), merged in the order of their names; NULL when a name is
 * in both. */
static struct pack_item *
pack_items(const struct names *tree, const struct source_held *held,
           const char *subdir, int *n)
{
	struct pack_item *items;
	int i = 0, j = 0, nheld = held ? held->n : 0;

	items = m_malloc(sizeof(*items) * (tree->n + nheld + 1));
	*n = 0;
	while (i < tree->n || j < nheld) {
		int c = i == tree->n ? 1 : j == nheld ? -1 :
		        strcmp(tree->v[i], held->v[j].name);

		if (c == 0) {
			free(items);
			return NULL;
		}
		if (c < 0)
			items[(*n)++] = (struct pack_item){ tree->v[i++], NULL };
		else if (in_subdir(held->v[j].name, subdir))
			items[(*n)++] = (struct pack_item){ held->v[j].name,
			                                    &held->v[j] };
		if (c > 0)
			j++;
	}
	return items;
}

int
source_archive_pack(const char *path, const char *dir, const char *subdir,
                    const struct source_held *held, const char *top,
                    time_t mtime, enum source_compression compression,
                    struct dpkg_error *err)
{
	struct names members = { 0 };
	struct archive *a = archive_write_new();
	struct pack_item *items = NULL;
	int i, n = 0, ret = 0;

	if (subdir) {
		names_add(&members, subdir);
		walk(dir, subdir, &members);
	} else {
		walk(dir, "", &members);
	}
	names_sort(&members);
	items = pack_items(&members, held, subdir, &n);
	if (items == NULL) {
		ret = put_error_at(err, path, 0, "a held member is in the "
		                   "tree too");
		goto out;
	}
	archive_write_set_format_gnutar(a);
	if (compression == SOURCE_XZ || compression == SOURCE_XZ_FAST) {
		archive_write_add_filter_xz(a);
		/* Two threads, on any machine: liblzma's multi-threaded
		 * encoder writes the same bytes for any number of threads
		 * but one, which writes others.  The tarball is compressed
		 * while it is written, at about half the wall time. */
		if (compression == SOURCE_XZ_FAST) {
			archive_write_set_filter_option(a, "xz",
			                                "compression-level", "3");
			archive_write_set_filter_option(a, "xz", "threads", "2");
		}
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
	for (i = 0; i < n && ret == 0; i++)
		ret = items[i].held ?
		      pack_held(a, held, items[i].held, top, mtime, path, err) :
		      pack_member(a, dir, items[i].rel, top, mtime, path, err);
	if (archive_write_close(a) != ARCHIVE_OK && ret == 0)
		ret = put_error_at(err, path, 0, "cannot write: %s",
		                   archive_error_string(a));
out:
	archive_write_free(a);
	free(items);
	names_free(&members);
	return ret;
}
