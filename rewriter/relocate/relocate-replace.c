/*
 * relocate-replace.c: a file replaced atomically, its metadata and
 * hardlinks kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file-copy.h"
#include "base/fmt.h"
#include "relocate/elf-dynamic.h"
#include "relocate/relocate-run.h"

int
relocate_job_path(const struct patch_job *job, bool dry_run, char *path,
                  size_t size)
{
	const struct plan_entry *pe = &job->plan->p[job->index];

	return fmt_into(path, size, "%s/%s", job->plan->tree->dir,
	                dry_run ? pe->e->path : relocate_final_path(pe));
}

/* Write the new content into TMP, a file of its own. */
static int
write_temp(const char *tmp, const struct patch_result *res)
{
	size_t done = 0;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	while (res->data && done < res->len) {
		ssize_t n = write(fd, res->data + done, res->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		done += (size_t)n;
	}
	return close(fd);
fail:
	close(fd);
	return -1;
}

/* JOB waits for patchelf to set RPATH in its replacement TMP of PATH. */
static int
wait_for_patchelf(struct patch_job *job, const char *path, const char *tmp,
                  char **rpath, bool written)
{
	job->path = strdup(path);
	job->temp = strdup(tmp);
	if (job->path == NULL || job->temp == NULL) {
		dpkg_put_error(&job->err, "%s: out of memory", path);
		if (written)
			unlink(tmp);
		return -1;
	}
	job->rpath = *rpath;
	job->temp_written = written;
	*rpath = NULL;
	return 0;
}

static int
temp_name(struct patch_job *job, const char *path, char *tmp, size_t size)
{
	if (fmt_into(tmp, size, "%s" RELOCATE_TEMP_SUFFIX, path) < 0) {
		dpkg_put_error(&job->err, "%s: cannot replace: %s", path,
		               strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

int
relocate_replace_file(struct patch_job *job, const char *path,
                      struct patch_result *res)
{
	char tmp[PATH_MAX * 2];

	if (temp_name(job, path, tmp, sizeof(tmp)) < 0)
		return -1;
	/* Only the RUNPATH changes: patchelf writes the replacement. */
	if (res->data == NULL && res->rpath != NULL)
		return wait_for_patchelf(job, path, tmp, &res->rpath, false);
	if (write_temp(tmp, res) < 0) {
		dpkg_put_error(&job->err, "%s: cannot replace: %s", path,
		               strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (res->rpath)
		return wait_for_patchelf(job, path, tmp, &res->rpath, true);
	return relocate_replace_finish(job, path, tmp);
}

int
relocate_replace_edited(struct patch_job *job, const char *path, int fd,
                        const struct elf_edits *edits, char **rpath)
{
	char tmp[PATH_MAX * 2];
	const struct stat *st = &job->plan->p[job->index].e->st;
	size_t i;
	int out;

	if (temp_name(job, path, tmp, sizeof(tmp)) < 0)
		return -1;
	if (*rpath != NULL)
		return wait_for_patchelf(job, path, tmp, rpath, false);
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0 || file_copy_fd(out, fd, st->st_size) < 0)
		goto fail;
	for (i = 0; i < edits->n; i++)
		if (pwrite(out, edits->v[i].bytes, edits->v[i].len,
		           (off_t)edits->v[i].off) != (ssize_t)edits->v[i].len)
			goto fail;
	if (close(out) < 0) {
		out = -1;
		goto fail;
	}
	return relocate_replace_finish(job, path, tmp);
fail:
	dpkg_put_error(&job->err, "%s: cannot replace: %s", path,
	               strerror(errno));
	if (out >= 0)
		close(out);
	unlink(tmp);
	return -1;
}

int
relocate_replace_finish(struct patch_job *job, const char *path,
                        const char *tmp)
{
	const struct stat *st = &job->plan->p[job->index].e->st;
	struct tree *t = job->plan->tree;
	struct timespec times[2] = {st->st_atim, st->st_mtim};
	size_t i;

	/* chown clears set-id bits, so the mode comes after. */
	if ((lchown(tmp, st->st_uid, st->st_gid) < 0 && errno != EPERM) ||
	    chmod(tmp, st->st_mode & 07777) < 0 || rename(tmp, path) < 0 ||
	    utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) < 0) {
		dpkg_put_error(&job->err, "%s: cannot replace: %s", path,
		               strerror(errno));
		unlink(tmp);
		return -1;
	}
	for (i = 0; i < job->nlinks; i++) {
		char other[PATH_MAX * 2], othertmp[PATH_MAX * 2 + 16];

		if (fmt_into(other, sizeof(other), "%s/%s", t->dir,
		             relocate_final_path(
		                     &job->plan->p[job->links[i]])) < 0 ||
		    fmt_into(othertmp, sizeof(othertmp),
		             "%s" RELOCATE_TEMP_SUFFIX, other) < 0)
			errno = ENAMETOOLONG;
		else if (link(path, othertmp) == 0 &&
		         rename(othertmp, other) == 0)
			continue;
		dpkg_put_error(&job->err, "%s: cannot relink: %s",
		               other, strerror(errno));
		unlink(othertmp);
		return -1;
	}
	return 0;
}
