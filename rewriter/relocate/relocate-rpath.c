/*
 * relocate-rpath.c: RUNPATHs set by patchelf, for the files that have no
 * room for theirs (elf-dynamic.c writes the others).
 *
 * The replacements wait until the search is done, then one patchelf a
 * file, NTHREADS at once: each writes the file's replacement itself
 * (--output), or edits the one the patch wrote already.
 */
#include <errno.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relocate/relocate-run.h"

extern char **environ;

struct rpath_run {
	/* The jobs whose replacement waits for its RUNPATH. */
	struct patch_job **w;
	size_t nw;
	atomic_size_t next;
};

/* patchelf --set-rpath on JOB's replacement, or from its file into it. */
static int
run_patchelf(struct patch_job *job)
{
	char *argv[] = {
		(char *)"patchelf", (char *)"--set-rpath", job->rpath,
		job->temp_written ? job->temp : (char *)"--output",
		job->temp_written ? NULL : job->temp,
		job->temp_written ? NULL : job->path, NULL,
	};
	pid_t pid;
	int status;

	if (posix_spawnp(&pid, "patchelf", NULL, NULL, argv, environ) != 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Put JOB's replacement in place once patchelf set its RUNPATH, else
 * drop it. */
static void
finish(struct patch_job *job)
{
	if (run_patchelf(job) < 0) {
		dpkg_put_error(&job->err,
		               "%s: patchelf --set-rpath '%s' failed",
		               job->path, job->rpath);
		unlink(job->temp);
		job->failed = 1;
	} else if (relocate_replace_finish(job, job->path, job->temp) < 0) {
		job->failed = 1;
	}
}

static void *
worker(void *arg)
{
	struct rpath_run *rr = arg;
	size_t i;

	while ((i = atomic_fetch_add(&rr->next, 1)) < rr->nw)
		finish(rr->w[i]);
	return NULL;
}

void
relocate_set_rpaths(struct relocation *run, int nthreads)
{
	struct rpath_run rr = {0};
	size_t j;

	atomic_init(&rr.next, 0);
	for (j = 0; j < run->njobs; j++)
		rr.nw += run->jobs[j].rpath != NULL;
	if (rr.nw == 0)
		return;
	rr.w = calloc(rr.nw, sizeof(*rr.w));
	if (rr.w == NULL) {
		/* Every replacement still waiting is dropped. */
		for (j = 0; j < run->njobs; j++) {
			struct patch_job *job = &run->jobs[j];

			if (job->rpath == NULL)
				continue;
			if (job->temp_written)
				unlink(job->temp);
			dpkg_put_error(&job->err, "%s: out of memory",
			               job->path);
			job->failed = 1;
		}
		return;
	}
	rr.nw = 0;
	for (j = 0; j < run->njobs; j++)
		if (run->jobs[j].rpath != NULL)
			rr.w[rr.nw++] = &run->jobs[j];
	relocate_on_threads(nthreads < (int)rr.nw ? nthreads : (int)rr.nw,
	                    worker, &rr);
	free(rr.w);
}
