/*
 * tree.c: the entries of a staged binary package tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/tree.h"

/* Suffixes of the temporary files the rewriter itself writes. */
static const char *const reserved_suffixes[] = { ".dpkg-new", ".dpkg-tmp",
                                                  NULL };

static int
has_reserved_suffix(const char *name)
{
	size_t len = strlen(name);
	int i;

	for (i = 0; reserved_suffixes[i]; i++) {
		size_t n = strlen(reserved_suffixes[i]);

		if (len >= n && strcmp(name + len - n, reserved_suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

static int
tree_add(struct tree *tree, const char *path, const struct stat *st,
         char *link)
{
	struct tree_entry *e;

	if (tree->count == tree->alloc) {
		size_t alloc = tree->alloc ? tree->alloc * 2 : 256;
		void *v = realloc(tree->entries, alloc * sizeof(*e));

		if (v == NULL)
			return -1;
		tree->entries = v;
		tree->alloc = alloc;
	}
	e = &tree->entries[tree->count];
	e->path = strdup(path);
	if (e->path == NULL)
		return -1;
	e->st = *st;
	e->link = link;
	tree->count++;
	return 0;
}

static int
walk_dir(struct tree *tree, int dirfd, const char *rel, struct dpkg_error *err)
{
	DIR *d;
	struct dirent *de;
	int fd = openat(dirfd, rel[0] ? rel : ".",
	                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		dpkg_put_error(err, "%s/%s: cannot open directory: %s",
		               tree->dir, rel, strerror(errno));
		return -1;
	}
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		dpkg_put_error(err, "%s/%s: %s", tree->dir, rel,
		               strerror(errno));
		return -1;
	}
	while ((errno = 0, de = readdir(d)) != NULL) {
		char path[PATH_MAX];
		struct stat st;
		char *link = NULL;
		int n;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (rel[0] == '\0' && strcmp(de->d_name, "DEBIAN") == 0)
			continue;
		n = snprintf(path, sizeof(path), "%s%s%s", rel, rel[0] ? "/" : "",
		             de->d_name);
		if (n < 0 || (size_t)n >= sizeof(path)) {
			dpkg_put_error(err, "%s/%s/%s: path too long",
			               tree->dir, rel, de->d_name);
			goto fail;
		}
		if (has_reserved_suffix(de->d_name)) {
			dpkg_put_error(err, "%s/%s: name ends in a suffix "
			               "reserved for temporary files",
			               tree->dir, path);
			goto fail;
		}
		/* By the name in its directory: one component to look up. */
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			dpkg_put_error(err, "%s/%s: %s", tree->dir, path,
			               strerror(errno));
			goto fail;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t len = readlinkat(fd, de->d_name, target,
			                         sizeof(target) - 1);

			if (len < 0) {
				dpkg_put_error(err, "%s/%s: %s", tree->dir,
				               path, strerror(errno));
				goto fail;
			}
			target[len] = '\0';
			link = strdup(target);
			if (link == NULL)
				goto oom;
		}
		if (tree_add(tree, path, &st, link) < 0)
			goto oom;
		if (S_ISDIR(st.st_mode) &&
		    walk_dir(tree, dirfd, path, err) < 0)
			goto fail_quiet;
	}
	if (errno != 0) {
		dpkg_put_error(err, "%s/%s: %s", tree->dir, rel,
		               strerror(errno));
		goto fail;
	}
	closedir(d);
	return 0;
oom:
	dpkg_put_error(err, "%s: out of memory", tree->dir);
fail:
fail_quiet:
	closedir(d);
	return -1;
}

static int
entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tree_entry *)a)->path,
	              ((const struct tree_entry *)b)->path);
}

int
tree_walk(struct tree *tree, const char *dir, struct dpkg_error *err)
{
	int dirfd;
	int rc;

	memset(tree, 0, sizeof(*tree));
	tree->dir = strdup(dir);
	if (tree->dir == NULL) {
		dpkg_put_error(err, "%s: out of memory", dir);
		return -1;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		dpkg_put_error(err, "%s: cannot open directory: %s", dir,
		               strerror(errno));
		return -1;
	}
	rc = walk_dir(tree, dirfd, "", err);
	close(dirfd);
	if (rc == 0)
		qsort(tree->entries, tree->count, sizeof(*tree->entries),
		      entry_cmp);
	return rc;
}

struct tree_entry *
tree_find(const struct tree *tree, const char *path)
{
	struct tree_entry key = { .path = (char *)path };

	if (tree->count == 0)
		return NULL;
	return bsearch(&key, tree->entries, tree->count,
	               sizeof(*tree->entries), entry_cmp);
}

void
tree_free(struct tree *tree)
{
	size_t i;

	for (i = 0; i < tree->count; i++) {
		free(tree->entries[i].path);
		free(tree->entries[i].link);
	}
	free(tree->entries);
	free(tree->dir);
	memset(tree, 0, sizeof(*tree));
}
