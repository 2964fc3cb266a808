/*
 * relocate-replace.c: a file replaced atomically, its metadata and
 * hardlinks kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fmt.h"
#include "relocate/relocate-run.h"

extern char **environ;

static int
run_patchelf(const char *rpath, const char *file)
{
	char *argv[] = {"patchelf", "--set-rpath", (char *)rpath, (char *)file,
	                NULL};
	pid_t pid;
	int status;

	if (posix_spawnp(&pid, "patchelf", NULL, NULL, argv, environ) != 0)
		return -1;
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int
relocate_replace_file(struct patch_job *job, const char *path,
                      const struct patch_result *res, const struct stat *st)
{
	struct tree *t = job->plan->tree;
	char tmp[PATH_MAX * 2];
	struct timespec times[2] = {st->st_atim, st->st_mtim};
	size_t done = 0, i;
	int fd;

	if (fmt_into(tmp, sizeof(tmp), "%s.dpkg-new", path) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	while (res->data && done < res->len) {
		ssize_t n = write(fd, res->data + done, res->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail_fd;
		done += (size_t)n;
	}
	if (res->data == NULL) {
		/* Only the RUNPATH changes: start from the file as it is. */
		int in = open(path, O_RDONLY | O_CLOEXEC);
		char buf[65536];
		ssize_t n;

		if (in < 0)
			goto fail_fd;
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(fd, buf, (size_t)n) != n) {
				close(in);
				goto fail_fd;
			}
		close(in);
		if (n < 0)
			goto fail_fd;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (res->rpath && run_patchelf(res->rpath, tmp) < 0) {
		dpkg_put_error(&job->err,
		               "%s: patchelf --set-rpath "
		               "'%s' failed",
		               path, res->rpath);
		unlink(tmp);
		return -1;
	}
	/* chown clears set-id bits, so the mode comes after. */
	if ((lchown(tmp, st->st_uid, st->st_gid) < 0 && errno != EPERM) ||
	    chmod(tmp, st->st_mode & 07777) < 0 || rename(tmp, path) < 0 ||
	    utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) < 0)
		goto fail;
	for (i = 0; i < job->nlinks; i++) {
		char other[PATH_MAX * 2], othertmp[PATH_MAX * 2 + 16];

		if (fmt_into(other, sizeof(other), "%s/%s", t->dir,
		             relocate_final_path(
		                     &job->plan->p[job->links[i]])) < 0 ||
		    fmt_into(othertmp, sizeof(othertmp), "%s.dpkg-new", other) <
		            0)
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
fail_fd:
	close(fd);
fail:
	dpkg_put_error(&job->err, "%s: cannot replace: %s", path,
	               strerror(errno));
	unlink(tmp);
	return -1;
}
