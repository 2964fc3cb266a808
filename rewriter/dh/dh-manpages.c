/*
 * dh-manpages.c: the namespace's manual pages and Info manuals compressed,
 * and the links to them following, as dh_compress does in usr/share/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdeflate.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/file.h>
#include <dpkg/string.h>
#include <dpkg/varbuf.h>

#include "base/error-at.h"
#include "base/file-rewrite.h"
#include "base/tree.h"
#include "dh/dh-manpages.h"
#include "relocate/patch.h"

/* What dh_compress leaves as it is. */
static const char *const compressed[] = {
	".gz", ".z", ".Z", ".bz2", ".xz", ".lzma", ".zst", ".lz", ".lz4",
	NULL,
};

static bool
is_compressed(const char *path)
{
	int i;

	for (i = 0; compressed[i]; i++)
		if (str_match_end(path, compressed[i]))
			return true;
	return false;
}

/* gzip -9n FILE (the entry E of the tree in DIR): FILE.gz, FILE gone. */
static int
compress_file(const struct dh_helper *h, const char *dir,
              const struct tree_entry *e, struct dpkg_error *err)
{
	struct libdeflate_compressor *c;
	struct varbuf in = VARBUF_INIT;
	struct timespec times[2] = { e->st.st_atim, e->st.st_mtim };
	char path[8192], gz[8192 + 16];
	unsigned char *out;
	size_t bound, n;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, e->path);
	snprintf(gz, sizeof(gz), "%s.gz", path);
	dh_helper_show(h, "gzip -9nf %s", path);
	if (h->no_act)
		return 0;
	if (file_slurp(path, &in, err) < 0)
		return -1;
	c = libdeflate_alloc_compressor(9);
	if (c == NULL) {
		varbuf_destroy(&in);
		return put_error_at(err, path, 0, "out of memory compressing "
		                    "it");
	}
	bound = libdeflate_gzip_compress_bound(c, in.used);
	out = m_malloc(bound);
	/* libdeflate writes no name and a zero time: gzip -n. */
	n = libdeflate_gzip_compress(c, in.buf, in.used, out, bound);
	libdeflate_free_compressor(c);
	varbuf_destroy(&in);
	if (n == 0)
		ret = put_error_at(err, path, 0, "cannot compress");
	else
		ret = file_replace(gz, out, n, &e->st, true, err);
	free(out);
	if (ret == 0 &&
	    (utimensat(AT_FDCWD, gz, times, 0) < 0 || unlink(path) < 0))
		ret = put_error_at(err, path, 0, "cannot replace by %s: %s",
		                   gz, strerror(errno));
	return ret;
}

/*
 * The link E of the tree in DIR, when its target is gone but TARGET.gz
 * is there: LINK.gz -> TARGET.gz, as dh_compress makes it.  A link the
 * relocation left pointing into /usr/share/man or /usr/share/info (dh_link
 * made it to the page's old, uncompressed name) is taken to the page in
 * the namespace, as the relocation takes those directories there.
 */
static int
follow_link(const struct dh_helper *h, const char *dir,
            const struct tree_entry *e, const struct extras_namespace *ns,
            struct dpkg_error *err)
{
	static const char usr_share[] = "/usr/share/";
	char path[8192], target[16384], newpath[8192 + 16], newlink[8192];
	const char *slash = strrchr(e->path, '/');
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, e->path);
	if (e->link[0] != '/') {
		snprintf(target, sizeof(target), "%s/%.*s%s%s", dir,
		         slash ? (int)(slash - e->path) : 0, e->path,
		         slash ? "/" : "", e->link);
		snprintf(newlink, sizeof(newlink), "%s.gz", e->link);
	} else if (strncmp(e->link, "/usr/share/man/", 15) == 0 ||
	           strncmp(e->link, "/usr/share/info/", 16) == 0) {
		char from[8192], to[8192];

		snprintf(target, sizeof(target), "%s/%s/share/%s", dir, ns->rel,
		         e->link + strlen(usr_share));
		snprintf(from, sizeof(from), "/%.*s",
		         slash ? (int)(slash - e->path) : 0, e->path);
		snprintf(to, sizeof(to), "%s/share/%s.gz", ns->path,
		         e->link + strlen(usr_share));
		patch_relative_path(from, to, newlink, sizeof(newlink));
	} else {
		return 0;
	}
	if (stat(target, &st) == 0)
		return 0;
	strncat(target, ".gz", sizeof(target) - strlen(target) - 1);
	if (stat(target, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	snprintf(newpath, sizeof(newpath), "%s%s", path,
	         str_match_end(path, ".gz") ? "" : ".gz");
	dh_helper_show(h, "ln -sf %s %s", newlink, newpath);
	if (h->no_act)
		return 0;
	if (unlink(path) < 0 || symlink(newlink, newpath) < 0 ||
	    lchown(newpath, e->st.st_uid, e->st.st_gid) < 0)
		return put_error_at(err, newpath, 0, "cannot make the link: %s",
		                    strerror(errno));
	return 0;
}

int
dh_compress_manpages(const struct dh_helper *h, const char *dir,
                     const struct extras_namespace *ns, size_t *count,
                     struct dpkg_error *err)
{
	struct tree tree;
	struct stat st;
	char man[512], info[512];
	size_t i;
	int ret = 0;

	*count = 0;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(man, sizeof(man), "%s/share/man/", ns->rel);
	snprintf(info, sizeof(info), "%s/share/info/", ns->rel);
	if (tree_walk(&tree, dir, err) < 0)
		return -1;
	for (i = 0; i < tree.count && ret == 0; i++) {
		const struct tree_entry *e = &tree.entries[i];

		if (!S_ISREG(e->st.st_mode) || is_compressed(e->path) ||
		    (strncmp(e->path, man, strlen(man)) != 0 &&
		     strncmp(e->path, info, strlen(info)) != 0))
			continue;
		ret = compress_file(h, tree.dir, e, err);
		if (ret == 0)
			(*count)++;
	}
	/* Also links dh_link made to a page by its name before: the
	 * pages were compressed in the first run. */
	for (i = 0; i < tree.count && ret == 0; i++)
		if (tree.entries[i].link != NULL)
			ret = follow_link(h, tree.dir, &tree.entries[i], ns,
			                  err);
	tree_free(&tree);
	return ret;
}
