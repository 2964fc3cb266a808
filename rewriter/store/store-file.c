/*
 * store-file.c: the store's files and the tools it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/varbuf.h>

#include "base/file-rewrite.h"
#include "store/store-file.h"

int
store_file_read(const char *path, size_t max, char **text, size_t *len,
                struct dpkg_error *err)
{
	struct stat st;
	ssize_t n;
	int fd;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return dpkg_put_errno(err, "%s: cannot open", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > max) {
		close(fd);
		return dpkg_put_error(err, "%s: not a regular file of at most "
		                      "%zu bytes", path, max);
	}
	*text = m_malloc(st.st_size + 1);
	while (*len < (size_t)st.st_size) {
		n = read(fd, *text + *len, st.st_size - *len);
		if (n <= 0) {
			close(fd);
			free(*text);
			*text = NULL;
			return dpkg_put_errno(err, "%s: cannot read", path);
		}
		*len += n;
	}
	(*text)[*len] = '\0';
	close(fd);
	return 0;
}

int
store_file_write(const char *path, const char *text, size_t len,
                 struct dpkg_error *err)
{
	struct file_bytes b = { text, len };

	return file_write_atomically(path, file_write_bytes, &b, NULL,
	                             FILE_WRITE_SYNC, err);
}

int
store_mkdirs(const char *path, struct dpkg_error *err)
{
	char *p = m_strdup(path), *s;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		{
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				dpkg_put_errno(err, "%s: cannot create "
				               "directory", p);
				free(p);
				return -1;
			}
			*s = c;
		}
		if (*s == '\0')
			break;
	}
	free(p);
	return 0;
}

static int
remove_one(const char *path, const struct stat *st, int flag,
           struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int
store_remove_tree(const char *path, struct dpkg_error *err)
{
	struct stat st;

	if (lstat(path, &st) < 0 && errno == ENOENT)
		return 0;
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return dpkg_put_errno(err, "%s: cannot remove", path);
	return 0;
}

int
store_spawn(const char *const *argv, const char *dir, const char *log,
            int *status, struct dpkg_error *err)
{
	pid_t pid;
	int ws;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return dpkg_put_errno(err, "cannot fork");
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		if (log != NULL) {
			fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
			if (fd < 0) {
				fprintf(stderr, "%s: cannot open: %s\n", log,
				        strerror(errno));
				_exit(127);
			}
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		if (dir != NULL && chdir(dir) < 0) {
			fprintf(stderr, "%s: cannot change to: %s\n", dir,
			        strerror(errno));
			_exit(127);
		}
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: cannot run: %s\n", argv[0],
		        strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return dpkg_put_errno(err, "%s: cannot wait", argv[0]);
	if (WIFSIGNALED(ws))
		return dpkg_put_error(err, "%s: killed by signal %d", argv[0],
		                      WTERMSIG(ws));
	*status = WEXITSTATUS(ws);
	if (*status == 127)
		return dpkg_put_error(err, "%s: cannot run (see %s)", argv[0],
		                      log ? log : "its output");
	return 0;
}

char *
store_command_line(const char *const *argv)
{
	struct varbuf vb = VARBUF_INIT;
	size_t i;

	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			varbuf_add_char(&vb, ' ');
		if (strpbrk(argv[i], " \t'\"$") != NULL) {
			varbuf_add_char(&vb, '\'');
			varbuf_add_str(&vb, argv[i]);
			varbuf_add_char(&vb, '\'');
		} else {
			varbuf_add_str(&vb, argv[i]);
		}
	}
	varbuf_end_str(&vb);
	return varbuf_detach(&vb);
}
