/*
 * dh-setid.c: set-id bits removed from the staged trees.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "base/tree.h"
#include "dh/dh-setid.h"

static size_t
strip_tree(const struct dh_helper *h, const char *dir)
{
	struct tree tree;
	struct stat st;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t i, n = 0;

	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (tree_walk(&tree, dir, &err) < 0)
		ohshit("%s", err.str);
	for (i = 0; i < tree.count; i++) {
		const struct tree_entry *e = &tree.entries[i];
		mode_t mode = e->st.st_mode & 07777;
		mode_t setid = mode & (S_ISUID | S_ISGID);
		char path[8192];

		/* The owner mattered only for the set-id bit: root's again,
		 * as the gate wants every file (rxvt-unicode's chgrp utmp). */
		bool owner = e->st.st_uid != 0 || e->st.st_gid != 0;

		if (!S_ISREG(e->st.st_mode) || setid == 0)
			continue;
		n++;
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
			if (!h->no_act && lchown(path, 0, 0) < 0)
				ohshite("cannot change the owner of %s", path);
		}
		dh_helper_show(h, "chmod a-s %s", path);
		if (!h->no_act && chmod(path, mode & ~setid) < 0)
			ohshite("cannot change the mode of %s", path);
	}
	tree_free(&tree);
	return n;
}

size_t
dh_strip_setid(const struct dh_helper *h)
{
	size_t i, n = 0;

	for (i = 0; i < h->control.count; i++) {
		char dir[512];

		if (!h->act[i])
			continue;
		dh_helper_tmpdir(h, h->control.packages[i].name, dir, sizeof(dir));
		n += strip_tree(h, dir);
	}
	return n;
}
