/*
 * relocate-plan.c: where each entry of a staged tree goes, and the moves
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "relocate/relocate-run.h"

ssize_t
relocate_parent_index(const struct tree *t, const char *path)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct tree_entry *e;

	if (slash == NULL)
		return -1;
	fmt_into(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	e = tree_find(t, parent);
	return e ? e - t->entries : -1;
}

/*
 * Whether every directory above DEST that the tree already has is a real
 * directory: a symlink there (opt -> /) would take a move, and whatever
 * follows it, outside the tree.
 */
static bool
dest_parents_are_dirs(const struct tree *t, const char *dest,
                      struct dpkg_error *err)
{
	char prefix[PATH_MAX];
	char *slash;

	/* Each parent in turn: the copy cut at its slash. */
	fmt_into(prefix, sizeof(prefix), "%s", dest);
	for (slash = strchr(prefix, '/'); slash; slash = strchr(slash + 1, '/')) {
		const struct tree_entry *e;

		*slash = '\0';
		e = tree_find(t, prefix);
		if (e != NULL && !S_ISDIR(e->st.st_mode)) {
			dpkg_put_error(err, "%s/%s: is not a directory, and "
			               "%s would go below it", t->dir, prefix,
			               dest);
			return false;
		}
		*slash = '/';
	}
	return true;
}

bool
relocate_plan_tree(struct relocation *run, struct tree_plan *plan,
                   struct dpkg_error *err)
{
	struct tree *t = plan->tree;
	struct pathmap *dests = pathmap_new();
	size_t i;

	plan->p = calloc(t->count ? t->count : 1, sizeof(*plan->p));
	if (plan->p == NULL || dests == NULL)
		goto oom;
	for (i = 0; i < t->count; i++) {
		struct layout_place place;
		struct plan_entry *pe = &plan->p[i];

		pe->e = &t->entries[i];
		if (layout_place(run->ns, pe->e->path,
		                 S_ISDIR(pe->e->st.st_mode), &place) < 0) {
			dpkg_put_error(err,
			               "%s/%s: path too long in the "
			               "namespace",
			               t->dir, pe->e->path);
			goto fail;
		}
		pe->kind = place.kind;
		pe->dest = strdup(place.dest);
		if (pe->dest == NULL)
			goto oom;
	}
	/* A directory with anything below it that stays is not owned. */
	for (i = 0; i < t->count; i++) {
		ssize_t up;

		if (plan->p[i].kind == LAYOUT_MOVE)
			continue;
		for (up = relocate_parent_index(t, t->entries[i].path); up >= 0;
		     up = relocate_parent_index(t, t->entries[up].path)) {
			if (plan->p[up].blocked)
				break;
			plan->p[up].blocked = true;
		}
	}
	/* Sorted order puts every directory before what it holds. */
	for (i = 0; i < t->count; i++) {
		struct plan_entry *pe = &plan->p[i];
		ssize_t up = relocate_parent_index(t, pe->e->path);
		bool is_dir = S_ISDIR(pe->e->st.st_mode);
		struct tree_entry *there;
		const char *other;

		if (up >= 0 && (plan->p[up].how == HOW_UNIT ||
		                plan->p[up].how == HOW_CARRIED)) {
			pe->how = HOW_CARRIED;
		} else if (pe->kind == LAYOUT_MOVE) {
			there = tree_find(t, pe->dest);
			if (is_dir &&
			    (pe->blocked || layout_is_shared_dir(pe->e->path) ||
			     (there && S_ISDIR(there->st.st_mode))))
				pe->how = HOW_MERGE;
			else
				pe->how = HOW_UNIT;
		} else if (pe->kind == LAYOUT_EXPORT &&
		           strcmp(pe->dest, pe->e->path) != 0) {
			pe->how = HOW_UNIT;
		} else {
			pe->how = HOW_STAY;
		}
		if (pe->how == HOW_STAY)
			continue;
		if (!dest_parents_are_dirs(t, pe->dest, err))
			goto fail;
		there = tree_find(t, pe->dest);
		/* drop_replaced() removes it once all is planned. */
		if (there != NULL && run->opt->links_replace &&
		    S_ISLNK(pe->e->st.st_mode) && !S_ISDIR(there->st.st_mode))
			there = NULL;
		if (pe->how != HOW_MERGE && there != NULL) {
			dpkg_put_error(err,
			               "%s/%s: would move onto %s, which "
			               "the package already ships",
			               t->dir, pe->e->path, pe->dest);
			goto fail;
		}
		if (pe->how == HOW_MERGE && there != NULL &&
		    !S_ISDIR(there->st.st_mode)) {
			dpkg_put_error(err,
			               "%s/%s: directory would merge into "
			               "%s, which is not a directory",
			               t->dir, pe->e->path, pe->dest);
			goto fail;
		}
		other = pathmap_lookup(dests, pe->dest, strlen(pe->dest));
		if (other != NULL &&
		    !(pe->how == HOW_MERGE && other[0] == 'M')) {
			dpkg_put_error(err,
			               "%s/%s: would move to %s, where "
			               "%s also goes",
			               t->dir, pe->e->path, pe->dest,
			               other + 1);
			goto fail;
		}
		if (other == NULL) {
			char tag[PATH_MAX + 1];

			fmt_into(tag, sizeof(tag), "%c%s",
			         pe->how == HOW_MERGE ? 'M' : 'U', pe->e->path);
			if (pathmap_add(dests, pe->dest, tag) < 0)
				goto oom;
		}
	}
	pathmap_free(dests);
	return true;
oom:
	dpkg_put_error(err, "%s: out of memory", t->dir);
fail:
	pathmap_free(dests);
	return false;
}

const char *
relocate_final_path(const struct plan_entry *pe)
{
	return pe->how == HOW_STAY ? pe->e->path : pe->dest;
}

/* mkdir -p of the parent of PATH under DIRFD. */
static int
make_parents(int dirfd, const char *path)
{
	char buf[PATH_MAX];
	char *p;

	fmt_into(buf, sizeof(buf), "%s", path);
	for (p = strchr(buf, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdirat(dirfd, buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

enum relocate_status
relocate_move_entries(struct tree_plan *plan, struct report *report, bool dry_run,
                      struct dpkg_error *err)
{
	struct tree *t = plan->tree;
	int dirfd = -1;
	size_t i;

	if (!dry_run) {
		dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			goto fail;
	}
	for (i = 0; i < t->count; i++) {
		struct plan_entry *pe = &plan->p[i];
		char from[PATH_MAX + 1], to[PATH_MAX + 1];

		fmt_into(from, sizeof(from), "/%s", pe->e->path);
		fmt_into(to, sizeof(to), "/%s", relocate_final_path(pe));
		if (pe->kind == LAYOUT_EXPORT)
			report_export(report, from, to);
		else if (pe->how != HOW_STAY && pe->how != HOW_MERGE &&
		         (!S_ISDIR(pe->e->st.st_mode) || pe->how == HOW_UNIT))
			report_move(report, from, to);
		if (dry_run || pe->how != HOW_UNIT)
			continue;
		if (make_parents(dirfd, pe->dest) < 0 ||
		    renameat(dirfd, pe->e->path, dirfd, pe->dest) < 0) {
			dpkg_put_error(err, "%s/%s: cannot move to %s: %s",
			               t->dir, pe->e->path, pe->dest,
			               strerror(errno));
			close(dirfd);
			return RELOCATE_FAILED;
		}
	}
	if (dry_run)
		return RELOCATE_DONE;
	/* Deepest first, so that emptied parents go too. */
	for (i = t->count; i-- > 0;) {
		struct plan_entry *pe = &plan->p[i];

		if (pe->how == HOW_MERGE &&
		    unlinkat(dirfd, pe->e->path, AT_REMOVEDIR) < 0 &&
		    errno != ENOTEMPTY && errno != EEXIST) {
			dpkg_put_error(err, "%s/%s: %s", t->dir, pe->e->path,
			               strerror(errno));
			close(dirfd);
			return RELOCATE_FAILED;
		}
	}
	close(dirfd);
	return RELOCATE_DONE;
fail:
	dpkg_put_error(err, "%s: %s", t->dir, strerror(errno));
	return RELOCATE_FAILED;
}
