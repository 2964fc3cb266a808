/*
 * orig-tarball.c: the upstream tarballs beside a converted tree, under the
 * source's new name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "base/file-copy.h"
#include "base/strings.h"
#include "convert/orig-tarball.h"
#include "namespace/namespace.h"

/* Whether the files open as A and B hold the same bytes. */
static bool
same_content(int a, int b)
{
	char ba[65536], bb[65536];
	ssize_t na, nb;

	do {
		na = read(a, ba, sizeof(ba));
		nb = read(b, bb, sizeof(bb));
		if (na < 0 || na != nb || memcmp(ba, bb, (size_t)na) != 0)
			return false;
	} while (na > 0);
	return true;
}

/*
 * Copy FROM to TO in directory DIRFD through a temporary name, linked to
 * TO so that an existing TO is never replaced.  Returns 0, or -1 with
 * errno set (EEXIST: TO appeared meanwhile).
 */
static int
copy_beside(int dirfd, const char *from, const char *to)
{
	char tmp[64];
	struct stat st;
	int in, out, ret = 0, saved;

	in = openat(dirfd, from, O_RDONLY);
	if (in < 0)
		return -1;
	/* mkstemp names a file in the working directory, not in DIRFD. */
	snprintf(tmp, sizeof(tmp), ".extras-convert.%ld.tmp", (long)getpid());
	out = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (out < 0) {
		saved = errno;
		close(in);
		errno = saved;
		return -1;
	}
	if (fstat(in, &st) < 0 || file_copy_fd(out, in, st.st_size) < 0)
		ret = -1;
	if (ret == 0 && fsync(out) < 0)
		ret = -1;
	if (close(out) < 0)
		ret = -1;
	if (ret == 0 && linkat(dirfd, tmp, dirfd, to, 0) < 0)
		ret = -1;
	saved = errno;
	close(in);
	unlinkat(dirfd, tmp, 0);
	errno = saved;
	return ret;
}

/* Whether TO in DIRFD is FROM, or a file with FROM's bytes. */
static bool
already_there(int dirfd, const char *from, const char *to)
{
	struct stat sf, st;
	int a, b;
	bool same;

	if (fstatat(dirfd, from, &sf, 0) < 0 || fstatat(dirfd, to, &st, 0) < 0)
		return false;
	if (sf.st_dev == st.st_dev && sf.st_ino == st.st_ino)
		return true;
	if (!S_ISREG(st.st_mode) || sf.st_size != st.st_size)
		return false;
	a = openat(dirfd, from, O_RDONLY);
	b = openat(dirfd, to, O_RDONLY);
	same = a >= 0 && b >= 0 && same_content(a, b);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	return same;
}

/*
 * Link FROM to TO in DIRFD.  Whatever stops it is a note, not an error:
 * the tree is converted already, and the author can link it by hand.
 */
static void
link_one(struct convert_plan *plan, int dirfd, const char *from,
         const char *to)
{
	char file[600];
	const char *how = "hard link";
	int e = 0;

	snprintf(file, sizeof(file), "../%s", to);
	if (already_there(dirfd, from, to))
		return;
	if (linkat(dirfd, from, dirfd, to, AT_SYMLINK_FOLLOW) < 0)
		e = errno;
	if (e == EXDEV || e == EPERM || e == EMLINK) {
		how = "copy";
		e = copy_beside(dirfd, from, to) == 0 ? 0 : errno;
	}
	if (e == EEXIST)
		convert_plan_note(plan, file, 0, "differs from ../%s: left as "
		                  "it is, and dpkg-source will use it", from);
	else if (e != 0)
		convert_plan_note(plan, file, 0, "cannot be made from ../%s "
		                  "(%s): dpkg-source needs the upstream tarball "
		                  "under the new name", from, strerror(e));
	else
		convert_plan_note(plan, file, 0, "a %s of ../%s: the upstream "
		                  "tarball under the source's new name, for "
		                  "dpkg-source", how, from);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
orig_tarball_link(struct convert_plan *plan, const char *app,
                  const char *version, struct dpkg_error *err)
{
	struct dpkg_error verr = DPKG_ERROR_OBJECT;
	struct dpkg_version v;
	char parent[4096], old[512], new[512];
	char **names = NULL;
	struct dirent *de;
	size_t oldlen;
	int n = 0, i, fd;
	DIR *dir;

	if (parseversion(&v, version, &verr) < 0) {
		dpkg_error_destroy(&verr);
		return put_error_at(err, "debian/changelog", 0,
		                    "invalid version '%s'", version);
	}
	/* A native source's one tarball is built from the tree itself. */
	if (v.revision == NULL || v.revision[0] == '\0')
		return 0;
	/* Already named so: the tarball is the one dpkg-source looks for. */
	if ((size_t)snprintf(old, sizeof(old), "%s_%s.orig", app, v.version) >=
	    sizeof(old))
		return 0;
	oldlen = strlen(old);
	snprintf(parent, sizeof(parent), "%s/..", plan->dir);
	fd = open(parent, O_RDONLY | O_DIRECTORY);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (dir == NULL) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(dir)) != NULL) {
		const char *rest = de->d_name + oldlen;

		/* .orig.tar.*, .orig-COMPONENT.tar.*, and their .asc */
		if (strncmp(de->d_name, old, oldlen) != 0 ||
		    (strncmp(rest, ".tar.", 5) != 0 &&
		     (rest[0] != '-' || strstr(rest, ".tar.") == NULL)))
			continue;
		names = m_realloc(names, sizeof(*names) * (n + 1));
		names[n++] = m_strdup(de->d_name);
	}
	/* Notes in the same order on every file system. */
	qsort(names, n, sizeof(*names), compare_names);
	for (i = 0; i < n; i++) {
		snprintf(new, sizeof(new), "%s%s", EXTRAS_PREFIX, names[i]);
		link_one(plan, dirfd(dir), names[i], new);
	}
	strings_free(names, n);
	closedir(dir);
	return 0;
}
