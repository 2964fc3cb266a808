/*
 * relocate-links.c: symlinks retargeted to where what they name went
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/path.h"
#include "relocate/relocate-run.h"

static void
dir_of(const char *abs, char *out, size_t size)
{
	const char *slash = strrchr(abs, '/');

	fmt_into(out, size, "%.*s",
	         slash && slash != abs ? (int)(slash - abs) : 1, abs);
}

static bool
same_top(const char *a, const char *b)
{
	size_t la = strcspn(a + 1, "/"), lb = strcspn(b + 1, "/");

	return la == lb && strncmp(a + 1, b + 1, la) == 0;
}

/* The target a symlink needs once it and what it names have moved. */
static bool
new_link_target(const struct relocation *run, const struct plan_entry *pe, char *out,
                size_t size)
{
	char target[PATH_MAX * 2], final[PATH_MAX + 1], dir[PATH_MAX];
	struct pathmap_match m;
	const char *link = pe->e->link;

	fmt_into(final, sizeof(final), "/%s", relocate_final_path(pe));
	if (link[0] == '/') {
		fmt_into(target, sizeof(target), "%s", link);
	} else {
		char src[PATH_MAX + 1];

		fmt_into(src, sizeof(src), "/%s", pe->e->path);
		dir_of(src, dir, sizeof(dir));
		fmt_into(target, sizeof(target), "%s/%s", dir, link);
	}
	path_clean(target);
	if (pathmap_resolve(run->paths, target, &m)) {
		char moved[PATH_MAX * 2];

		fmt_into(moved, sizeof(moved), "%s%s", m.new, target + m.len);
		fmt_into(target, sizeof(target), "%s", moved);
	}
	if (link[0] == '/' || !same_top(final, target)) {
		fmt_into(out, size, "%s", target);
	} else {
		dir_of(final, dir, sizeof(dir));
		patch_relative_path(dir, target, out, size);
	}
	/* A relative link that did not move keeps its own spelling. */
	if (link[0] != '/' && pe->how == HOW_STAY) {
		char again[PATH_MAX * 2];

		fmt_into(again, sizeof(again), "%s/%s", dir, link);
		path_clean(again);
		if (strcmp(again, target) == 0)
			fmt_into(out, size, "%s", link);
	}
	return strcmp(out, link) != 0;
}

enum relocate_status
relocate_retarget_symlinks(struct relocation *run, struct tree_plan *plan,
                           struct report *report, struct dpkg_error *err)
{
	struct tree *t = plan->tree;
	size_t i;

	for (i = 0; i < t->count; i++) {
		struct plan_entry *pe = &plan->p[i];
		char target[PATH_MAX], file[PATH_MAX + 1], tmp[PATH_MAX * 2];
		char path[PATH_MAX * 2];

		if (pe->e->link == NULL ||
		    !new_link_target(run, pe, target, sizeof(target)))
			continue;
		fmt_into(file, sizeof(file), "/%s", relocate_final_path(pe));
		report_patch(report, file, "symlink", 0, -1, pe->e->link,
		             strlen(pe->e->link), target);
		if (run->opt->dry_run)
			continue;
		if (fmt_into(path, sizeof(path), "%s/%s", t->dir,
		             relocate_final_path(pe)) < 0 ||
		    fmt_into(tmp, sizeof(tmp), "%s.dpkg-tmp", path) < 0) {
			dpkg_put_error(err, "%s/%s: path too long", t->dir,
			               relocate_final_path(pe));
			return RELOCATE_FAILED;
		}
		if (symlink(target, tmp) < 0 ||
		    lchown(tmp, pe->e->st.st_uid, pe->e->st.st_gid) < 0 ||
		    rename(tmp, path) < 0) {
			dpkg_put_error(err, "%s: cannot retarget symlink: %s",
			               path, strerror(errno));
			unlink(tmp);
			return RELOCATE_FAILED;
		}
	}
	return RELOCATE_DONE;
}
