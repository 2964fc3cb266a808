/*
 * relocate.c: move staged package trees into their namespace and patch
 * the references to what moved: the run, start to end.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "relocate/relocate-run.h"

static void
flag_entries(struct tree_plan *plan, struct report *report)
{
	size_t i;

	for (i = 0; i < plan->tree->count; i++) {
		const struct plan_entry *pe = &plan->p[i];
		mode_t mode = pe->e->st.st_mode;
		char file[PATH_MAX + 1];

		fmt_into(file, sizeof(file), "/%s", relocate_final_path(pe));
		if (S_ISREG(mode) && (mode & S_ISUID))
			report_flag(report, file, "setuid");
		if (S_ISREG(mode) && (mode & S_ISGID))
			report_flag(report, file, "setgid");
		if (!S_ISLNK(mode) && (mode & S_IWOTH) && !(mode & S_ISVTX))
			report_flag(report, file, "world-writable");
		if (S_ISREG(mode) && !(mode & S_IWUSR))
			report_flag(report, file, "read-only");
		if (S_ISCHR(mode) || S_ISBLK(mode))
			report_flag(report, file, "device");
		if (S_ISFIFO(mode))
			report_flag(report, file, "fifo");
		if (S_ISSOCK(mode))
			report_flag(report, file, "socket");
	}
}

static void
plan_free(struct tree_plan *plan)
{
	size_t i;

	if (plan->p)
		for (i = 0; i < plan->tree->count; i++)
			free(plan->p[i].dest);
	free(plan->p);
	if (plan->tree)
		tree_free(plan->tree);
	free(plan->tree);
	plan->p = NULL;
	plan->tree = NULL;
}

static void
run_free(struct relocation *run)
{
	int t;

	for (t = 0; t < run->nplans; t++)
		plan_free(&run->plans[t]);
	free(run->plans);
	free(run->jobs);
	pathmap_free(run->paths);
	pathmap_free(run->programs);
	pathmap_free(run->icons);
	pathmap_free(run->libs);
}

/* Walk DIR into PLAN and plan it. */
static enum relocate_status
walk_and_plan(struct relocation *run, struct tree_plan *plan,
              const char *dir, struct dpkg_error *err)
{
	plan->tree = calloc(1, sizeof(struct tree));
	if (plan->tree == NULL) {
		dpkg_put_error(err, "out of memory");
		return RELOCATE_FAILED;
	}
	if (tree_walk(plan->tree, dir, err) < 0 ||
	    !relocate_plan_tree(run, plan, err))
		return RELOCATE_BAD_INPUT;
	return RELOCATE_DONE;
}

/*
 * With links_replace: remove the file or link that a link of PLAN which
 * moves lands on.  dh_link replaces what lies at a link's path; when it
 * runs after the relocation, that was moved into the namespace already
 * (an upstream install that makes the same link as debian/PKG.links), and
 * the link now takes its place there.  Returns how many were removed, or
 * -1.
 */
static int
drop_replaced(const struct tree_plan *plan, struct dpkg_error *err)
{
	const struct tree *t = plan->tree;
	size_t i;
	int n = 0;

	for (i = 0; i < t->count; i++) {
		const struct plan_entry *pe = &plan->p[i];
		const struct tree_entry *there;
		char path[PATH_MAX * 2];

		if (pe->how != HOW_UNIT || !S_ISLNK(pe->e->st.st_mode))
			continue;
		there = tree_find(t, pe->dest);
		if (there == NULL || S_ISDIR(there->st.st_mode))
			continue;
		errno = ENAMETOOLONG;
		if (fmt_into(path, sizeof(path), "%s/%s", t->dir,
		             pe->dest) < 0 || unlink(path) < 0)
			return dpkg_put_errno(err, "%s/%s: cannot remove",
			                      t->dir, pe->dest);
		n++;
	}
	return n;
}

enum relocate_status
relocate_trees(const struct relocate_options *opt, const char *const *dirs,
               int ndirs,
               const struct extras_namespace *ns, struct report *report,
               struct dpkg_error *err)
{
	struct relocation run = {.opt = opt, .ns = ns};
	enum relocate_status status = RELOCATE_BAD_INPUT;
	int t;

	run.plans = calloc(ndirs, sizeof(*run.plans));
	run.paths = pathmap_new();
	run.programs = pathmap_new();
	run.icons = pathmap_new();
	run.libs = pathmap_new();
	if (!run.plans || !run.paths || !run.programs || !run.icons ||
	    !run.libs)
		goto oom;
	run.nplans = ndirs;
	for (t = 0; t < ndirs; t++) {
		status = walk_and_plan(&run, &run.plans[t], dirs[t], err);
		if (status != RELOCATE_DONE)
			goto out;
	}
	/* Only once every tree is planned, so that bad input changes
	 * nothing; a tree that lost something is then planned again. */
	for (t = 0; t < ndirs && opt->links_replace && !opt->dry_run; t++) {
		int dropped = drop_replaced(&run.plans[t], err);

		if (dropped < 0) {
			status = RELOCATE_FAILED;
			goto out;
		}
		if (dropped == 0)
			continue;
		plan_free(&run.plans[t]);
		status = walk_and_plan(&run, &run.plans[t], dirs[t], err);
		if (status != RELOCATE_DONE)
			goto out;
	}
	if (relocate_build_maps(&run) < 0)
		goto oom;
	if (pathmap_compile(run.paths, err) < 0) {
		status = RELOCATE_FAILED;
		goto out;
	}
	run.ctx = (struct patch_context){
		.paths = run.paths, .programs = run.programs,
		.icons = run.icons, .libs = run.libs,
		.localedir = run.localedir[0] ? run.localedir : NULL,
		.unclaimable = opt->unclaimable,
		.n_unclaimable = opt->n_unclaimable,
	};

	for (t = 0; t < ndirs; t++) {
		status = relocate_move_entries(&run.plans[t], report,
		                               opt->dry_run, err);
		if (status != RELOCATE_DONE)
			goto out;
		status = relocate_retarget_symlinks(&run, &run.plans[t], report,
		                                    err);
		if (status != RELOCATE_DONE)
			goto out;
		flag_entries(&run.plans[t], report);
	}
	status = relocate_patch_files(&run, report, err);
	report_accept(report, opt->accepted, opt->n_accepted);
	if (status == RELOCATE_DONE && report->oom) {
		dpkg_put_error(err, "out of memory");
		status = RELOCATE_FAILED;
	}
	if (status == RELOCATE_DONE && report->n_unpatched > 0)
		status = RELOCATE_UNPATCHED;
	goto out;
oom:
	dpkg_put_error(err, "out of memory");
	status = RELOCATE_FAILED;
out:
	run_free(&run);
	return status;
}
