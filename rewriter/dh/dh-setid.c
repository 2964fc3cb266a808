/*
 * dh-setid.c: set-id bits removed from the staged trees.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "base/error-at.h"
#include "base/tree.h"
#include "dh/dh-setid.h"

/* What the walk over the packages carries. */
struct strip {
	size_t n;
	struct dpkg_error *err;
};

static int
strip_tree(const struct dh_helper *h, size_t index, const char *dir,
           void *ctx)
{
	struct strip *s = ctx;
	struct tree tree;
	struct stat st;
	size_t i;
	int ret = 0;

	(void)index;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (tree_walk(&tree, dir, s->err) < 0)
		return -1;
	for (i = 0; i < tree.count && ret == 0; i++) {
		const struct tree_entry *e = &tree.entries[i];
		mode_t mode = e->st.st_mode & 07777;
		mode_t setid = mode & (S_ISUID | S_ISGID);
		char path[8192];

		/* The owner mattered only for the set-id bit: root's again,
		 * as the gate wants every file (rxvt-unicode's chgrp utmp). */
		bool owner = e->st.st_uid != 0 || e->st.st_gid != 0;

		if (!S_ISREG(e->st.st_mode) || setid == 0)
			continue;
		s->n++;
		snprintf(path, sizeof(path), "%s/%s", tree.dir, e->path);
		fprintf(stderr, "%s: warning: %s: %s bit%s removed (mode %04o "
		        "-> %04o)%s: an extras app runs confined without set-id "
		        "privileges; what it needed them for (a shared score "
		        "file, a device, utmp) must come from a declared "
		        "privilege or the user's own files\n", h->name, path,
		        setid == (S_ISUID | S_ISGID) ? "setuid and setgid" :
		        setid == S_ISUID ? "setuid" : "setgid",
		        setid == (S_ISUID | S_ISGID) ? "s" : "",
		        (unsigned)mode, (unsigned)(mode & ~setid),
		        owner ? ", owner made root:root" : "");
		/* chown clears set-id bits itself: first, then the mode. */
		if (owner) {
			dh_helper_show(h, "chown 0:0 %s", path);
			if (!h->no_act && lchown(path, 0, 0) < 0) {
				ret = put_error_at(s->err, path, 0, "cannot "
				                   "change the owner: %s",
				                   strerror(errno));
				break;
			}
		}
		dh_helper_show(h, "chmod a-s %s", path);
		if (!h->no_act && chmod(path, mode & ~setid) < 0)
			ret = put_error_at(s->err, path, 0, "cannot change the "
			                   "mode: %s", strerror(errno));
	}
	tree_free(&tree);
	return ret;
}

int
dh_strip_setid(const struct dh_helper *h, size_t *count,
               struct dpkg_error *err)
{
	struct strip s = { 0, err };
	int ret;

	ret = dh_helper_each_package(h, DH_EACH_ACTED_ON, strip_tree, &s);
	*count = s.n;
	return ret;
}
