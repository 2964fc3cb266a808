/*
 * relocate-run.h: the state of one relocation run, shared by its steps
 * (internal to the rewriter; the interface is relocate.h).
 *
 *   relocate-plan.c   where each entry goes, and the moves
 *   relocate-map.c    the maps of old paths, program and icon names
 *   relocate-links.c  symlinks retargeted
 *   relocate-files.c  contents searched and patched, on several threads
 *   relocate-replace.c  a file replaced atomically, metadata kept
 *   relocate-rpath.c  RUNPATHs set by patchelf where a file has no room
 *   relocate.c        the run, start to end
 */
#ifndef DH_EXTRAS_RELOCATE_RUN_H
#define DH_EXTRAS_RELOCATE_RUN_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dpkg/error.h>

#include "base/path.h"
#include "base/tree.h"
#include "namespace/layout.h"
#include "relocate/patch.h"
#include "relocate/pathmap.h"
#include "relocate/relocate.h"
#include "relocate/report.h"

/* How an entry gets to its place. */
enum how {
	HOW_STAY,    /* already where it belongs */
	HOW_UNIT,    /* renamed to its destination, with all below it */
	HOW_CARRIED, /* moves because a directory above it moves */
	HOW_MERGE,   /* a directory whose entries move one by one */
};

struct plan_entry {
	struct tree_entry *e;
	enum layout_kind kind;
	enum how how;
	bool blocked; /* directory with something below that stays */
	char *dest;
};

/* Where each entry of one staged tree goes, and how. */
struct tree_plan {
	struct tree *tree;
	struct plan_entry *p; /* parallel to tree->entries */
};

/* One file whose content is patched, by one of the worker threads. */
struct patch_job {
	struct tree_plan *plan;
	size_t index;  /* the first name of the inode */
	size_t *links; /* the other names of a hardlinked inode */
	size_t nlinks;
	struct report report;
	struct dpkg_error err;
	int failed;
	/* The RUNPATH patchelf sets in the replacement of the file at
	 * PATH, under its temporary name TEMP meanwhile: written and
	 * waiting (TEMP_WRITTEN), or to be written by patchelf from PATH;
	 * else all NULL. */
	char *rpath, *path, *temp;
	bool temp_written;
};

/* One run of the relocation over the staged trees of a source. */
struct relocation {
	const struct relocate_options *opt;
	const struct extras_namespace *ns;
	struct tree_plan *plans;
	int nplans;
	struct pathmap *paths, *programs, *icons, *libs;
	/* "/NS/share/locale" once a catalogue moves there, else "". */
	char localedir[PATH_MAX];
	struct patch_context ctx;
	struct patch_job *jobs;
	size_t njobs;
	atomic_size_t next_job;
};

ssize_t relocate_parent_index(const struct tree *t, const char *path);
/* Where an entry is once the run is done (relative). */
const char *relocate_final_path(const struct plan_entry *pe);

/* Place every entry of PLAN and decide how it moves; false on bad input. */
bool relocate_plan_tree(struct relocation *run, struct tree_plan *plan,
                        struct dpkg_error *err);
enum relocate_status relocate_move_entries(struct tree_plan *plan,
                                           struct report *report, bool dry_run,
                                           struct dpkg_error *err);

/* The maps of paths, program names and icon names after the run. */
int relocate_build_maps(struct relocation *run);

enum relocate_status relocate_retarget_symlinks(struct relocation *run,
                                                struct tree_plan *plan,
                                                struct report *report,
                                                struct dpkg_error *err);

enum relocate_status relocate_patch_files(struct relocation *run,
                                          struct report *report,
                                          struct dpkg_error *err);

/* The name a replacement is written under, beside the file it replaces. */
#define RELOCATE_TEMP_SUFFIX ".dpkg-new"

/*
 * The path of JOB's file in its tree: where the run put it, or where it
 * was staged in a dry run (nothing moves).  -1 when it does not fit.
 */
int relocate_job_path(const struct patch_job *job, bool dry_run, char *path,
                      size_t size);

/*
 * Replace the file at PATH, JOB's, whose content is OLD (OLDLEN bytes), by
 * RES's new content (RES->data), atomically, with the file's metadata;
 * then point its other hardlinked names at the new inode.  Content of the
 * same length or longer is written in place instead when the file is only
 * ours (see open_in_place()): the bytes that differ, and what it adds.
 * -1 on failure, the error in JOB and no temporary file left.
 */
int relocate_replace_file(struct patch_job *job, const char *path,
                          struct patch_result *res, const unsigned char *old,
                          size_t oldlen);
/*
 * The same for the file at PATH, open on FD, whose replacement is a copy
 * with EDITS made (elf-dynamic.h), then, when *RPATH is set, given that
 * RUNPATH by patchelf: the replacement waits under its temporary name,
 * JOB taking *RPATH, until relocate_set_rpaths() sets it and finishes the
 * job.  The edits are made in place instead when the file is only ours
 * and needs no patchelf, as above.
 */
int relocate_replace_edited(struct patch_job *job, const char *path, int fd,
                            const struct elf_edits *edits, char **rpath);
/* Put TMP, the replacement of PATH written by relocate_replace_file(), in
 * place, as it says. */
int relocate_replace_finish(struct patch_job *job, const char *path,
                            const char *tmp);

/*
 * Set the RUNPATH of every replacement waiting for one, one patchelf a
 * file, NTHREADS at once; then put each in place.  A file that fails
 * marks its job failed.
 */
void relocate_set_rpaths(struct relocation *run, int nthreads);

/* Run FN(ARG) on NTHREADS threads, this one among them; false when one
 * of them returned non-NULL. */
bool relocate_on_threads(int nthreads, void *(*fn)(void *), void *arg);

#endif
