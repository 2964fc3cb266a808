/*
 * relocate-rpath.c: RUNPATHs set by patchelf, many files a call.
 *
 * A process spawned for every file costs more than all the rest of a run
 * on a tree of many libraries, so the replacements wait until the search
 * is done, and patchelf then gets every file of the same new RUNPATH at
 * once, in batches shared out among the threads.
 */
#include <errno.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relocate/relocate-run.h"

extern char **environ;

/* Files W[START..END) of one RUNPATH, one patchelf call. */
struct batch {
	size_t start, end;
	size_t args;  /* bytes of arguments */
	size_t bytes; /* of the files */
};

struct rpath_run {
	/* The jobs whose replacement waits for its RUNPATH. */
	struct patch_job **w;
	size_t nw;
	struct batch *batches;
	size_t nbatches;
	size_t max_args, max_bytes; /* of a batch */
	atomic_size_t next;
};

/* patchelf --set-rpath on the N files from W, all of one RUNPATH. */
static int
run_patchelf(struct patch_job *const *w, size_t n)
{
	char **argv = calloc(n + 4, sizeof(*argv));
	pid_t pid;
	size_t i;
	int rc, status;

	if (argv == NULL)
		return -1;
	argv[0] = (char *)"patchelf";
	argv[1] = (char *)"--set-rpath";
	argv[2] = w[0]->rpath;
	for (i = 0; i < n; i++)
		argv[3 + i] = w[i]->temp;
	rc = posix_spawnp(&pid, "patchelf", NULL, NULL, argv, environ);
	free(argv);
	if (rc != 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Put JOB's replacement in place once patchelf set its RUNPATH (PATCHED),
 * else drop it. */
static void
finish(struct patch_job *job, bool patched)
{
	if (!patched) {
		dpkg_put_error(&job->err,
		               "%s: patchelf --set-rpath '%s' failed",
		               job->path, job->rpath);
		unlink(job->temp);
		job->failed = 1;
	} else if (relocate_replace_finish(job, job->path, job->temp) < 0) {
		job->failed = 1;
	}
}

/*
 * One batch: all its files in one call; when that fails, one call a file,
 * so that the error names the file that fails.
 */
static void
run_batch(struct rpath_run *rr, const struct batch *b)
{
	size_t n = b->end - b->start, i;
	bool all = run_patchelf(&rr->w[b->start], n) == 0;

	for (i = b->start; i < b->end; i++)
		finish(rr->w[i],
		       all || (n > 1 && run_patchelf(&rr->w[i], 1) == 0));
}

static void *
batch_worker(void *arg)
{
	struct rpath_run *rr = arg;
	size_t i;

	while ((i = atomic_fetch_add(&rr->next, 1)) < rr->nbatches)
		run_batch(rr, &rr->batches[i]);
	return NULL;
}

/* By RUNPATH, then in the order of the jobs (their paths'). */
static int
waiting_cmp(const void *a, const void *b)
{
	const struct patch_job *x = *(struct patch_job *const *)a;
	const struct patch_job *y = *(struct patch_job *const *)b;
	int c = strcmp(x->rpath, y->rpath);

	if (c != 0)
		return c;
	return x < y ? -1 : x > y;
}

/*
 * The bytes of arguments one call takes: a quarter of what exec(2)
 * allows, the rest left to the environment.  A batch that exec(2) still
 * refuses fails, and is retried one file at a time.
 */
static size_t
arg_budget(void)
{
	long max = sysconf(_SC_ARG_MAX);

	return max > 0 ? (size_t)max / 4 : 32768;
}

static size_t
arg_len(const struct patch_job *job)
{
	return strlen(job->temp) + 1 + sizeof(char *);
}

static size_t
file_size(const struct patch_job *job)
{
	return (size_t)job->plan->p[job->index].e->st.st_size;
}

/* Whether W[I] may join batch B. */
static bool
joins(const struct rpath_run *rr, const struct batch *b, size_t i)
{
	const struct patch_job *w = rr->w[i];

	return strcmp(w->rpath, rr->w[b->start]->rpath) == 0 &&
	       b->args + arg_len(w) <= rr->max_args &&
	       b->bytes + file_size(w) <= rr->max_bytes;
}

/* Largest first. */
static int
batch_cmp(const void *a, const void *b)
{
	const struct batch *x = a, *y = b;

	return x->bytes > y->bytes ? -1 : x->bytes < y->bytes;
}

/*
 * Cut RR->w, sorted, into batches of one RUNPATH each, within the
 * argument budget.  patchelf's time follows the files' sizes: with
 * several threads, a batch holds at most a quarter of a thread's share of
 * the bytes, and the largest go first, so that no thread is left with a
 * batch of the largest libraries when the others are done.
 */
static int
make_batches(struct rpath_run *rr, int nthreads)
{
	size_t total = 0, i;

	for (i = 0; i < rr->nw; i++)
		total += file_size(rr->w[i]);
	rr->max_args = arg_budget();
	rr->max_bytes = nthreads > 1 ? total / ((size_t)nthreads * 4)
	                             : SIZE_MAX;
	rr->batches = calloc(rr->nw, sizeof(*rr->batches));
	if (rr->batches == NULL)
		return -1;
	for (i = 0; i < rr->nw; i++) {
		struct batch *b = &rr->batches[rr->nbatches];

		if (rr->nbatches == 0 || !joins(rr, b - 1, i)) {
			size_t args = strlen(rr->w[i]->rpath) + 64;

			*b = (struct batch){i, i, args, 0};
			rr->nbatches++;
		} else {
			b--;
		}
		b->end = i + 1;
		b->args += arg_len(rr->w[i]);
		b->bytes += file_size(rr->w[i]);
	}
	qsort(rr->batches, rr->nbatches, sizeof(*rr->batches), batch_cmp);
	return 0;
}

/* The jobs of RUN whose replacement waits for a RUNPATH. */
static int
collect_waiting(struct relocation *run, struct rpath_run *rr)
{
	size_t j;

	for (j = 0; j < run->njobs; j++)
		rr->nw += run->jobs[j].rpath != NULL;
	if (rr->nw == 0)
		return 0;
	rr->w = calloc(rr->nw, sizeof(*rr->w));
	if (rr->w == NULL)
		return -1;
	rr->nw = 0;
	for (j = 0; j < run->njobs; j++)
		if (run->jobs[j].rpath != NULL)
			rr->w[rr->nw++] = &run->jobs[j];
	qsort(rr->w, rr->nw, sizeof(*rr->w), waiting_cmp);
	return 0;
}

/* Out of memory: every replacement still waiting is dropped. */
static void
drop_waiting(struct relocation *run)
{
	size_t j;

	for (j = 0; j < run->njobs; j++) {
		struct patch_job *job = &run->jobs[j];

		if (job->rpath == NULL)
			continue;
		unlink(job->temp);
		dpkg_put_error(&job->err, "%s: out of memory", job->path);
		job->failed = 1;
	}
}

void
relocate_set_rpaths(struct relocation *run, int nthreads)
{
	struct rpath_run rr = {0};

	atomic_init(&rr.next, 0);
	if (collect_waiting(run, &rr) < 0 ||
	    (rr.nw > 0 && make_batches(&rr, nthreads) < 0))
		drop_waiting(run);
	else if (rr.nw > 0)
		relocate_on_threads(nthreads < (int)rr.nbatches
		                            ? nthreads
		                            : (int)rr.nbatches,
		                    batch_worker, &rr);
	free(rr.w);
	free(rr.batches);
}
