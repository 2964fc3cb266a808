/*
 * tree.h: the entries of a staged binary package tree (debian/PKG/).
 *
 * A walk lists every file, directory and symlink below DIR, relative to
 * it and without a leading slash ("usr/bin/foo"), sorted bytewise so that
 * every later step is deterministic.  DEBIAN/ is control data, not part of
 * the package's file system, and is not listed.
 */
#ifndef DH_EXTRAS_TREE_H
#define DH_EXTRAS_TREE_H

#include <stddef.h>
#include <sys/stat.h>

#include <dpkg/error.h>

struct tree_entry {
	char *path;		/* relative to the tree, no leading slash */
	struct stat st;		/* lstat() of the entry */
	char *link;		/* symlink target, or NULL */
};

struct tree {
	char *dir;		/* the tree's directory, as given */
	struct tree_entry *entries;
	size_t count;
	size_t alloc;
};

/*
 * Walk DIR into TREE.  Returns 0, or -1 with a one-line reason in ERR
 * (naming the file) for anything that is not a readable tree.
 */
int tree_walk(struct tree *tree, const char *dir, struct dpkg_error *err);
void tree_free(struct tree *tree);

/* The entry for PATH, or NULL (binary search: entries are sorted). */
struct tree_entry *tree_find(const struct tree *tree, const char *path);

#endif
