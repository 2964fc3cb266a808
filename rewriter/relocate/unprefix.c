/*
 * unprefix.c: bring an install made under the namespace prefix back to
 * usr/, etc/ and var/.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "relocate/unprefix.h"

/* Whether the regular files A and B hold the same bytes. */
static bool
same_content(const char *a, const char *b)
{
	char ba[8192], bb[8192];
	bool same = true;
	ssize_t na, nb;
	int fa = open(a, O_RDONLY | O_NOFOLLOW), fb = open(b, O_RDONLY | O_NOFOLLOW);

	if (fa < 0 || fb < 0)
		same = false;
	while (same) {
		na = read(fa, ba, sizeof(ba));
		nb = read(fb, bb, sizeof(bb));
		if (na != nb || na < 0 || memcmp(ba, bb, (size_t)na) != 0)
			same = false;
		if (na <= 0)
			break;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/*
 * Whether TO's directory holds "extras-" + TO's name with the same bytes
 * as FROM (SF its status): an exported icon dh_extras_icons copied under
 * its own name into the namespace.  Brought back, that name would clash
 * with the export.
 */
static bool
export_of(const char *from, const struct stat *sf, const char *to)
{
	const char *base = strrchr(to, '/');
	char other[PATH_MAX];
	struct stat so;

	if (!S_ISREG(sf->st_mode) || base == NULL ||
	    fmt_into(other, sizeof(other), "%.*s/extras-%s",
	             (int)(base - to), to, base + 1) < 0)
		return false;
	return lstat(other, &so) == 0 && S_ISREG(so.st_mode) &&
	       so.st_size == sf->st_size && same_content(from, other);
}

/*
 * Move FROM onto TO (paths), merging directories: a directory that exists
 * on both sides has its entries moved one by one.  Returns entries moved.
 */
static long
merge_move(const char *from, const char *to, bool dry_run,
           struct dpkg_error *err)
{
	struct stat sf, st;
	DIR *d;
	struct dirent *de;
	long moved = 0;

	if (lstat(from, &sf) < 0) {
		dpkg_put_error(err, "%s: %s", from, strerror(errno));
		return -1;
	}
	if (lstat(to, &st) < 0) {
		if (errno != ENOENT) {
			dpkg_put_error(err, "%s: %s", to, strerror(errno));
			return -1;
		}
		if (dry_run)
			return 1;
		if (export_of(from, &sf, to)) {
			if (unlink(from) < 0) {
				dpkg_put_error(err, "cannot remove %s: %s",
				               from, strerror(errno));
				return -1;
			}
			return 1;
		}
		if (rename(from, to) < 0) {
			dpkg_put_error(err, "cannot move %s to %s: %s", from,
			               to, strerror(errno));
			return -1;
		}
		return 1;
	}
	if (!S_ISDIR(sf.st_mode) || !S_ISDIR(st.st_mode)) {
		dpkg_put_error(err, "%s: the install put it both under the "
		               "namespace prefix and at %s", from, to);
		return -1;
	}
	d = opendir(from);
	if (d == NULL) {
		dpkg_put_error(err, "%s: %s", from, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		char f[PATH_MAX], t[PATH_MAX];
		long n;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fmt_into(f, sizeof(f), "%s/%s", from, de->d_name) < 0 ||
		    fmt_into(t, sizeof(t), "%s/%s", to, de->d_name) < 0) {
			dpkg_put_error(err, "%s/%s: path too long", from,
			               de->d_name);
			closedir(d);
			return -1;
		}
		n = merge_move(f, t, dry_run, err);
		if (n < 0) {
			closedir(d);
			return -1;
		}
		moved += n;
	}
	closedir(d);
	if (!dry_run)
		rmdir(from);
	return moved;
}

long
unprefix_tree(const struct extras_namespace *ns, const char *destdir,
              bool dry_run, struct dpkg_error *err)
{
	char nsdir[PATH_MAX], usr[PATH_MAX], up[PATH_MAX];
	struct dirent *de;
	long moved = 0;
	DIR *d;
	char *slash;

	if (fmt_into(nsdir, sizeof(nsdir), "%s/%s", destdir, ns->rel) < 0 ||
	    fmt_into(usr, sizeof(usr), "%s/usr", destdir) < 0) {
		dpkg_put_error(err, "%s: path too long", destdir);
		return -1;
	}
	/* Through a symlink (opt -> /), the moves would leave DESTDIR. */
	for (slash = strchr(nsdir + strlen(destdir) + 1, '/');;
	     slash = strchr(slash + 1, '/')) {
		struct stat st;
		size_t n = slash ? (size_t)(slash - nsdir) : strlen(nsdir);

		snprintf(up, sizeof(up), "%.*s", (int)n, nsdir);
		if (lstat(up, &st) < 0)
			return errno == ENOENT ? 0 : -1;
		if (!S_ISDIR(st.st_mode)) {
			dpkg_put_error(err, "%s: is not a directory", up);
			return -1;
		}
		if (slash == NULL)
			break;
	}
	d = opendir(nsdir);
	if (d == NULL)
		return errno == ENOENT ? 0 : -1;
	if (!dry_run && mkdir(usr, 0755) < 0 && errno != EEXIST) {
		dpkg_put_error(err, "%s: %s", usr, strerror(errno));
		closedir(d);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		char f[PATH_MAX], t[PATH_MAX];
		bool top = strcmp(de->d_name, "etc") == 0 ||
		           strcmp(de->d_name, "var") == 0;
		long n;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fmt_into(f, sizeof(f), "%s/%s", nsdir, de->d_name) < 0 ||
		    fmt_into(t, sizeof(t), "%s/%s", top ? destdir : usr,
		             de->d_name) < 0) {
			dpkg_put_error(err, "%s/%s: path too long", nsdir,
			               de->d_name);
			closedir(d);
			return -1;
		}
		n = merge_move(f, t, dry_run, err);
		if (n < 0) {
			closedir(d);
			return -1;
		}
		moved += n;
	}
	closedir(d);
	if (dry_run)
		return moved;
	/* The namespace directory and the empty ones above it. */
	snprintf(up, sizeof(up), "%s", nsdir);
	while (strlen(up) > strlen(destdir) && rmdir(up) == 0 &&
	       (slash = strrchr(up, '/')) != NULL)
		*slash = '\0';
	return moved;
}
