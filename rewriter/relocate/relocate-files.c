/*
 * relocate-files.c: file contents searched and patched, on several
 * threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/fdio.h>
#include <dpkg/string.h>

#include "base/fmt.h"
#include "relocate/elf-dynamic.h"
#include "relocate/elf-read.h"
#include "relocate/relocate-run.h"

/* A thread's buffer for file contents, grown as needed. */
struct readbuf {
	unsigned char *data;
	size_t alloc;
	unsigned char *chunk; /* SCAN_CHUNK bytes */
};

/*
 * Read the whole of FD into RB.  read(2) rather than mmap(2): unmapping
 * in a threaded process costs every CPU a TLB flush, a file.
 */
static int
read_whole(int fd, size_t size, struct readbuf *rb)
{
	ssize_t done;

	if (size + 1 > rb->alloc) {
		size_t alloc = rb->alloc ? rb->alloc : 1 << 20;
		void *v;

		while (alloc < size + 1)
			alloc *= 2;
		v = realloc(rb->data, alloc);
		if (v == NULL)
			return -1;
		rb->data = v;
		rb->alloc = alloc;
	}
	done = fd_read(fd, rb->data, size);
	if (done < 0)
		return -1;
	if ((size_t)done != size) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/*
 * A file of this size or more that may hold a reference is mapped rather
 * than read again whole: its pages are the page cache's, neither copied
 * nor zeroed.  Mapping costs more than the chunked search (the page
 * tables of the whole file, and every CPU a TLB flush at unmapping), so
 * a large file is searched in chunks first, as any other: most, large
 * libraries, hold no reference.
 */
#define MAP_MIN (16u << 20)

/* Bytes read at a time when looking for a first reference. */
#define SCAN_CHUNK (1u << 20)
/* Chunks overlap by more than the longest reference, in UTF-16 too. */
#define SCAN_OVERLAP (2 * PATH_MAX + 16)

/*
 * The SCAN_CHUNK bytes of FD (SIZE bytes) from OFF, or all that is left
 * when fewer, into CHUNK: how many, or -1.  A file that ends before SIZE
 * changed since it was looked at, and is an error.
 */
static ssize_t
read_chunk(int fd, size_t size, size_t off, unsigned char *chunk)
{
	size_t want = size - off < SCAN_CHUNK ? size - off : SCAN_CHUNK;
	size_t done = 0;

	while (done < want) {
		ssize_t n = pread(fd, chunk + done, want - done,
		                  (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/*
 * Whether FD (SIZE bytes, its first N already in CHUNK) may hold a
 * reference, read in chunks through that small buffer, which stays in
 * cache.  An ELF file is searched as packed strings, which finds every
 * reference pathmap_next() finds and those of a Go program.  Most files
 * hold none and are read once this way; the others larger than a chunk
 * are read again whole.  Only false positives are possible at chunk
 * edges, and they only cost that second read.
 */
static int
may_hold_reference(int fd, size_t size, struct pathmap_scanner *sc,
                   unsigned char *chunk, size_t n, bool elf)
{
	size_t off = 0;

	for (;;) {
		ssize_t got;

		if (pathmap_holds_any(sc, chunk, n, elf))
			return 1;
		if (off + n >= size)
			return 0;
		off += n > SCAN_OVERLAP ? n - SCAN_OVERLAP : n;
		got = read_chunk(fd, size, off, chunk);
		if (got < 0)
			return -1;
		n = (size_t)got;
	}
}

/*
 * Whether a file must be read whole whatever a chunked scan says: its
 * references may be compressed, or be names rather than paths (.desktop
 * Exec= and Icon=, icon names in GtkBuilder files, Python code and
 * scripts naming their sibling programs), or, once the catalogues moved
 * (CTX->localedir), the shared locale directory named in a script.
 */
static bool
needs_whole_read(const struct patch_context *ctx, const char *file,
                 const unsigned char *head, size_t n)
{
	static const char *const named[] = {
		".desktop", ".ui", ".glade", ".py", NULL,
	};
	static const char *const scripts[] = {
		".sh", ".pl", ".pm", ".rb", ".lua", ".js", ".tcl", NULL,
	};
	int i;

	for (i = 0; named[i]; i++)
		if (str_match_end(file, named[i]))
			return true;
	if (n == 0)
		return false;
	if (patch_is_compressed(head, n))
		return true;
	if (n < 2 || head[0] != '#' || head[1] != '!') {
		for (i = 0; ctx->localedir != NULL && scripts[i]; i++)
			if (str_match_end(file, scripts[i]))
				return true;
		return false;
	}
	/* A script: Python's names icons, a shell script its sibling
	 * programs, any the locale directory. */
	return true;
}

/*
 * An ELF file holding no reference may still need the namespace's
 * libraries on its RUNPATH: its headers are read, not the whole of it,
 * and its replacement is a copy with a few bytes changed.
 */
static void
patch_runpath(struct relocation *run, struct patch_job *job, int fd,
              uint64_t size, const char *path, const char *file)
{
	struct elf_reader r = elf_reader_fd(&fd, size);
	struct elf_dynamic d;
	struct elf_edits edits = { NULL, 0 };
	char *rpath = NULL;
	int rc = elf_dynamic_read(&r, &d);

	if (rc > 0)
		rc = patch_elf_runpath(&run->ctx, file, &r, &d, &edits, &rpath,
		                       &job->report);
	elf_dynamic_free(&d);
	if (rc < 0) {
		dpkg_put_error(&job->err, "%s: out of memory", path);
		job->failed = 1;
	} else if (!run->opt->dry_run && (edits.n > 0 || rpath != NULL) &&
	           relocate_replace_edited(job, path, fd, &edits, &rpath) < 0) {
		job->failed = 1;
	}
	elf_edits_free(&edits);
	free(rpath);
}

static void
run_job(struct relocation *run, struct pathmap_scanner *sc, struct readbuf *rb,
        struct patch_job *job)
{
	struct plan_entry *pe = &job->plan->p[job->index];
	char path[PATH_MAX * 2], file[PATH_MAX + 1];
	struct patch_result res;
	unsigned char *buf = NULL, *map = NULL;
	struct stat st;
	ssize_t head;
	bool elf;
	int fd, may = 1;

	if (relocate_job_path(job, run->opt->dry_run, path, sizeof(path)) <
	    0) {
		dpkg_put_error(&job->err, "%s: path too long", path);
		job->failed = 1;
		return;
	}
	fmt_into(file, sizeof(file), "/%s", relocate_final_path(pe));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		dpkg_put_error(&job->err, "%s: %s", path,
		               strerror(errno));
		job->failed = 1;
		if (fd >= 0)
			close(fd);
		return;
	}
	head = read_chunk(fd, (size_t)st.st_size, 0, rb->chunk);
	if (head < 0) {
		dpkg_put_error(&job->err, "%s: %s", path, strerror(errno));
		job->failed = 1;
		goto done;
	}
	elf = elf_is_elf(rb->chunk, (size_t)head);
	if (!needs_whole_read(&run->ctx, file, rb->chunk, (size_t)head))
		may = may_hold_reference(fd, (size_t)st.st_size, sc, rb->chunk,
		                         (size_t)head, elf);
	if (may > 0 && (size_t)st.st_size >= MAP_MIN) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ,
		           MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (map == MAP_FAILED) {
			map = NULL;
			may = -1;
		}
	}
	if (may <= 0) {
		if (may < 0) {
			dpkg_put_error(&job->err, "%s: %s", path,
			               strerror(errno));
			job->failed = 1;
		} else if (elf && run->ctx.libs != NULL &&
		           pathmap_count(run->ctx.libs) > 0) {
			patch_runpath(run, job, fd, (uint64_t)st.st_size, path,
			              file);
		}
		goto done;
	}
	/* A file that fits in the chunk is there already, whole. */
	if (map != NULL) {
		buf = map;
	} else if ((size_t)st.st_size == (size_t)head) {
		buf = rb->chunk;
	} else if (read_whole(fd, (size_t)st.st_size, rb) < 0) {
		dpkg_put_error(&job->err, "%s: %s", path, strerror(errno));
		job->failed = 1;
		goto done;
	} else {
		buf = rb->data;
	}
	if (patch_content(&run->ctx, sc, file, buf, (size_t)st.st_size, &res,
	                  &job->report) < 0) {
		dpkg_put_error(&job->err, "%s: out of memory", path);
		job->failed = 1;
	} else if (run->opt->dry_run) {
		/* Nothing is written. */
	} else if (res.edits.n > 0 || res.rpath != NULL ?
	           relocate_replace_edited(job, path, fd, &res.edits,
	                                   &res.rpath) < 0 :
	           res.data != NULL &&
	           relocate_replace_file(job, path, &res, buf,
	                                 (size_t)st.st_size) < 0) {
		job->failed = 1;
	}
	patch_result_free(&res);
done:
	if (map != NULL)
		munmap(map, (size_t)st.st_size);
	close(fd);
}

static void *
worker(void *arg)
{
	struct relocation *run = arg;
	struct pathmap_scanner *sc = pathmap_scanner_new(run->paths);
	struct readbuf rb = {NULL, 0, malloc(SCAN_CHUNK)};
	size_t i;

	if (sc == NULL || rb.chunk == NULL) {
		pathmap_scanner_free(sc);
		free(rb.chunk);
		return (void *)1;
	}
	while ((i = atomic_fetch_add(&run->next_job, 1)) < run->njobs)
		run_job(run, sc, &rb, &run->jobs[i]);
	free(rb.data);
	free(rb.chunk);
	pathmap_scanner_free(sc);
	return NULL;
}

struct inode_ref {
	dev_t dev;
	ino_t ino;
	int plan;
	size_t index;
};

static int
inode_cmp(const void *a, const void *b)
{
	const struct inode_ref *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->plan != y->plan)
		return x->plan - y->plan;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Whether -X excludes entry I of TREE, matched as debhelper matches:
 * anywhere in the staged path. */
static bool
excluded(const struct relocate_options *opt, const struct tree *tree,
         size_t i)
{
	char path[PATH_MAX * 2 + 2];
	size_t k;

	if (opt->n_excluded == 0)
		return false;
	snprintf(path, sizeof(path), "%s/%s", tree->dir,
	         tree->entries[i].path);
	for (k = 0; k < opt->n_excluded; k++)
		if (strstr(path, opt->excluded[k]) != NULL)
			return true;
	return false;
}

/* One job per inode among the regular files not excluded, in path
 * order. */
static int
make_jobs(struct relocation *run)
{
	size_t n = 0, i, k;
	struct inode_ref *refs;
	int t;

	for (t = 0; t < run->nplans; t++)
		for (i = 0; i < run->plans[t].tree->count; i++)
			n += S_ISREG(run->plans[t].tree->entries[i].st.st_mode);
	refs = calloc(n ? n : 1, sizeof(*refs));
	run->jobs = calloc(n ? n : 1, sizeof(*run->jobs));
	if (refs == NULL || run->jobs == NULL) {
		free(refs);
		return -1;
	}
	n = 0;
	for (t = 0; t < run->nplans; t++)
		for (i = 0; i < run->plans[t].tree->count; i++) {
			const struct stat *st =
			        &run->plans[t].tree->entries[i].st;

			if (S_ISREG(st->st_mode) &&
			    !excluded(run->opt, run->plans[t].tree, i))
				refs[n++] = (struct inode_ref){
				        st->st_dev, st->st_ino, t, i};
		}
	qsort(refs, n, sizeof(*refs), inode_cmp);
	for (i = 0; i < n; i = k) {
		struct patch_job *job = &run->jobs[run->njobs++];

		for (k = i + 1;
		     k < n && refs[k].dev == refs[i].dev &&
		     refs[k].ino == refs[i].ino && refs[k].plan == refs[i].plan;
		     k++)
			;
		job->plan = &run->plans[refs[i].plan];
		job->index = refs[i].index;
		report_init(&job->report);
		if (k - i > 1) {
			size_t j;

			job->links = calloc(k - i - 1, sizeof(size_t));
			if (job->links == NULL) {
				free(refs);
				return -1;
			}
			for (j = i + 1; j < k; j++)
				job->links[job->nlinks++] = refs[j].index;
		}
	}
	free(refs);
	return 0;
}

static int
job_path_cmp(const void *a, const void *b)
{
	const struct patch_job *x = a, *y = b;

	if (x->plan != y->plan)
		return x->plan < y->plan ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

#define MAX_THREADS 16

bool
relocate_on_threads(int nthreads, void *(*fn)(void *), void *arg)
{
	pthread_t threads[MAX_THREADS - 1];
	bool ok = true;
	int i, started = 0;

	for (i = 1; i < nthreads && i < MAX_THREADS; i++)
		if (pthread_create(&threads[started], NULL, fn, arg) == 0)
			started++;
	if (fn(arg) != NULL)
		ok = false;
	for (i = 0; i < started; i++) {
		void *rc;

		pthread_join(threads[i], &rc);
		if (rc != NULL)
			ok = false;
	}
	return ok;
}

enum relocate_status
relocate_patch_files(struct relocation *run, struct report *report,
                     struct dpkg_error *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = run->opt->jobs > 0 ? run->opt->jobs : (int)cpus;
	enum relocate_status status = RELOCATE_DONE;
	size_t j;

	if (make_jobs(run) < 0) {
		dpkg_put_error(err, "out of memory");
		return RELOCATE_FAILED;
	}
	qsort(run->jobs, run->njobs, sizeof(*run->jobs), job_path_cmp);
	if (nthreads < 1)
		nthreads = 1;
	/* A thread costs more than it saves on a small package. */
	if (run->njobs < 64)
		nthreads = 1;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	atomic_init(&run->next_job, 0);
	if (!relocate_on_threads(nthreads, worker, run))
		status = RELOCATE_FAILED;
	/* Even so: no replacement is left waiting. */
	relocate_set_rpaths(run, nthreads);
	for (j = 0; j < run->njobs; j++) {
		struct patch_job *job = &run->jobs[j];

		if (job->failed && status == RELOCATE_DONE) {
			dpkg_error_move(err, &job->err);
			status = RELOCATE_FAILED;
		}
		dpkg_error_destroy(&job->err);
		report_take(report, &job->report);
		free(job->links);
		free(job->rpath);
		free(job->path);
		free(job->temp);
	}
	if (status == RELOCATE_FAILED && err->str == NULL)
		dpkg_put_error(err, "out of memory");
	return status;
}
