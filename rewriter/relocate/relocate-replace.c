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
#include <sys/uio.h>
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

/*
 * A descriptor open for writing on the file at PATH, JOB's, when the few
 * bytes that change may be written where they are rather than into a
 * copy put in its place: else -1, and the caller replaces the file.
 *
 * In place, a crash can leave the file half patched where a replacement
 * leaves the old file whole.  That is no loss here: the staged tree is
 * the build's own, made by dh_auto_install, and a build that fails is
 * staged again (dh_prep empties it).  It holds only for a file no one
 * else sees: one name (another, in this tree or out of it, must keep the
 * old content until its own replacement, or for ever), owned by us (a
 * file we do not own is not ours to change, and we may not set its
 * times back), no set-id bit (a write clears it, where the replacement
 * gets it back), and writable.
 */
static int
open_in_place(const struct patch_job *job, const char *path)
{
	const struct stat *st = &job->plan->p[job->index].e->st;
	struct stat now;
	int fd;

	if (job->nlinks > 0 || st->st_nlink != 1 || st->st_uid != geteuid() ||
	    (st->st_mode & (S_ISUID | S_ISGID)) != 0)
		return -1;
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &now) < 0 || !S_ISREG(now.st_mode) ||
	    now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
	    now.st_nlink != 1 || now.st_uid != st->st_uid ||
	    (now.st_mode & (S_ISUID | S_ISGID)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
pwrite_all(int fd, const void *data, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, data, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data = (const char *)data + n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/*
 * Write EDITS into FD, each run of edits that follow one another in the
 * file by one pwritev(2): a RUNPATH's dynamic entries and their section
 * sizes are neighbours.  A run cut short is written again, edit by edit.
 */
static int
write_edits(int fd, const struct elf_edits *edits)
{
	size_t i = 0;

	while (i < edits->n) {
		struct iovec iov[16];
		size_t first = i, k = 0, total = 0;
		ssize_t n;

		do {
			iov[k].iov_base = edits->v[i].bytes;
			iov[k++].iov_len = edits->v[i].len;
			total += edits->v[i++].len;
		} while (i < edits->n && k < sizeof(iov) / sizeof(*iov) &&
		         edits->v[i].off ==
		         edits->v[i - 1].off + edits->v[i - 1].len);
		n = pwritev(fd, iov, (int)k, (off_t)edits->v[first].off);
		if (n >= 0 && (size_t)n == total)
			continue;
		if (n < 0 && errno != EINTR)
			return -1;
		for (; first < i; first++)
			if (pwrite_all(fd, edits->v[first].bytes,
			               edits->v[first].len,
			               (off_t)edits->v[first].off) < 0)
				return -1;
	}
	return 0;
}

/* Close FD, the file JOB changed in place, with the times it had. */
static int
close_in_place(struct patch_job *job, const char *path, int fd, int rc)
{
	const struct stat *st = &job->plan->p[job->index].e->st;
	struct timespec times[2] = {st->st_atim, st->st_mtim};

	if (rc == 0 && futimens(fd, times) < 0)
		rc = -1;
	if (rc < 0)
		dpkg_put_error(&job->err, "%s: cannot patch: %s", path,
		               strerror(errno));
	if (close(fd) < 0 && rc == 0) {
		dpkg_put_error(&job->err, "%s: cannot patch: %s", path,
		               strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * Write into FD the bytes of NEW that differ from OLD, both LEN long: a
 * run of differences ends where 64 bytes in a row are the same.  NEW's
 * bytes past LEN, up to NEWLEN (what the patches added), follow.
 */
static int
write_changes(int fd, const unsigned char *old, const unsigned char *new,
              size_t len, size_t newlen)
{
	size_t i = 0;

	if (newlen > len &&
	    pwrite_all(fd, new + len, newlen - len, (off_t)len) < 0)
		return -1;

	while (i < len) {
		size_t start, end, same;

		/* Most of a file is the same: memcmp skips it a block at a
		 * time, at memory speed. */
		while (i + 256 <= len && memcmp(old + i, new + i, 256) == 0)
			i += 256;
		while (i < len && old[i] == new[i])
			i++;
		if (i == len)
			break;
		start = end = i;
		for (same = 0; i < len && same < 64; i++) {
			if (old[i] == new[i]) {
				same++;
			} else {
				same = 0;
				end = i;
			}
		}
		if (pwrite_all(fd, new + start, end + 1 - start,
		               (off_t)start) < 0)
			return -1;
	}
	return 0;
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
                      struct patch_result *res, const unsigned char *old,
                      size_t oldlen)
{
	char tmp[PATH_MAX * 2];
	int fd;

	/* As long as the old content or longer: the bytes that differ, and
	 * what it adds, written where they are. */
	if (res->len >= oldlen && (fd = open_in_place(job, path)) >= 0)
		return close_in_place(job, path, fd,
		                      write_changes(fd, old,
		                                    (const unsigned char *)
		                                            res->data,
		                                    oldlen, res->len));
	if (temp_name(job, path, tmp, sizeof(tmp)) < 0)
		return -1;
	if (write_temp(tmp, res) < 0) {
		dpkg_put_error(&job->err, "%s: cannot replace: %s", path,
		               strerror(errno));
		unlink(tmp);
		return -1;
	}
	return relocate_replace_finish(job, path, tmp);
}

int
relocate_replace_edited(struct patch_job *job, const char *path, int fd,
                        const struct elf_edits *edits, char **rpath)
{
	char tmp[PATH_MAX * 2];
	const struct stat *st = &job->plan->p[job->index].e->st;
	int out;

	if (temp_name(job, path, tmp, sizeof(tmp)) < 0)
		return -1;
	if (*rpath != NULL && edits->n == 0)
		return wait_for_patchelf(job, path, tmp, rpath, false);
	/* A RUNPATH in room the file has, strings patched over: a few
	 * hundred bytes change, where a replacement copies the whole file. */
	out = *rpath == NULL ? open_in_place(job, path) : -1;
	if (out >= 0)
		return close_in_place(job, path, out, write_edits(out, edits));
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0 || file_copy_fd(out, fd, st->st_size) < 0 ||
	    write_edits(out, edits) < 0)
		goto fail;
	if (close(out) < 0) {
		out = -1;
		goto fail;
	}
	/* Strings patched, and a RUNPATH only patchelf can set. */
	if (*rpath != NULL)
		return wait_for_patchelf(job, path, tmp, rpath, true);
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
