/*
 * gpgv.c: verify an upload's OpenPGP signature with gpgv(1).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debian/gpgv.h"

#define TEXT_MAX (64 << 20)

extern char **environ;

/* The status lines gpgv wrote, read whole. */
static char *
read_all(int fd, size_t max, size_t *len)
{
	size_t cap = 4096;
	char *buf = malloc(cap + 1);
	ssize_t n;

	if (buf == NULL)
		abort();
	*len = 0;
	while ((n = read(fd, buf + *len, cap - *len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		*len += n;
		if (*len == cap) {
			if (cap >= max)
				break;
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (buf == NULL)
				abort();
		}
	}
	buf[*len] = '\0';
	return buf;
}

/* The Nth (from 1) blank-separated word of LINE into OUT. */
static void
word(const char *line, int n, char *out, size_t outlen)
{
	const char *p = line;
	size_t len;

	out[0] = '\0';
	while (n-- > 1) {
		p += strcspn(p, " \n");
		p += strspn(p, " ");
	}
	len = strcspn(p, " \n");
	if (len < outlen) {
		memcpy(out, p, len);
		out[len] = '\0';
	}
}

static bool
is_fingerprint(const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n == 40 || n == 64;
}

/* Read gpgv's verdict from its status lines. */
static void
judge(const char *status, int exit_status, struct gpgv_result *res)
{
	const char *line;
	bool good = false, valid = false, nodata = false, nokey = false;
	char kw[64], fpr[80];

	res->status = GPGV_BAD;
	snprintf(res->reason, sizeof(res->reason), "bad signature");
	for (line = status; *line; line += strcspn(line, "\n"),
	     line += *line == '\n') {
		if (strncmp(line, "[GNUPG:] ", 9) != 0)
			continue;
		word(line + 9, 1, kw, sizeof(kw));
		if (strcmp(kw, "GOODSIG") == 0) {
			good = true;
		} else if (strcmp(kw, "VALIDSIG") == 0) {
			/* The primary key's fingerprint is the tenth. */
			word(line + 9, 11, fpr, sizeof(fpr));
			if (!is_fingerprint(fpr))
				word(line + 9, 2, fpr, sizeof(fpr));
			/* 40 or 64 hex digits: it fits, with its NUL. */
			if (is_fingerprint(fpr)) {
				valid = true;
				memcpy(res->fingerprint, fpr, strlen(fpr) + 1);
			}
		} else if (strcmp(kw, "NODATA") == 0) {
			nodata = true;
		} else if (strcmp(kw, "NO_PUBKEY") == 0 ||
		           (strcmp(kw, "ERRSIG") == 0 &&
		            strstr(line, " 9\n") != NULL)) {
			nokey = true;
		} else if (strcmp(kw, "EXPKEYSIG") == 0) {
			snprintf(res->reason, sizeof(res->reason),
			         "signed with an expired key");
		} else if (strcmp(kw, "REVKEYSIG") == 0) {
			snprintf(res->reason, sizeof(res->reason),
			         "signed with a revoked key");
		} else if (strcmp(kw, "EXPSIG") == 0) {
			snprintf(res->reason, sizeof(res->reason),
			         "the signature has expired");
		}
	}
	if (exit_status == 0 && good && valid) {
		res->status = GPGV_GOOD;
		res->reason[0] = '\0';
	} else if (nokey) {
		res->status = GPGV_NO_KEY;
		snprintf(res->reason, sizeof(res->reason), "signed by a key "
		         "not in the keyring");
	} else if (nodata && !good) {
		res->status = GPGV_UNSIGNED;
		snprintf(res->reason, sizeof(res->reason), "not signed");
	}
}

int
gpgv_verify(const char *file, const char *keyring, struct gpgv_result *res,
            struct dpkg_error *err)
{
	char tmpdir[] = "/tmp/dh-extras-gpgv.XXXXXX";
	const char *tmp = getenv("TMPDIR");
	char *dir = NULL, *keyarg = NULL, *out = NULL, *status;
	posix_spawn_file_actions_t fa;
	int pipefd[2], wstatus, ret = -1, fd;
	size_t len;
	pid_t pid;
	struct stat st;

	memset(res, 0, sizeof(res[0]));
	if (stat(keyring, &st) < 0)
		return dpkg_put_errno(err, "%s: cannot read keyring", keyring);
	if (access(file, R_OK) < 0)
		return dpkg_put_errno(err, "%s: cannot read", file);
	if (tmp != NULL && tmp[0] == '/') {
		if (asprintf(&dir, "%s/dh-extras-gpgv.XXXXXX", tmp) < 0)
			abort();
	} else {
		dir = strdup(tmpdir);
	}
	if (dir == NULL)
		abort();
	if (mkdtemp(dir) == NULL) {
		ret = dpkg_put_errno(err, "cannot create a directory in %s",
		                     tmp ? tmp : "/tmp");
		free(dir);
		return ret;
	}
	/* gpgv reads a keyring name without a slash from its home. */
	if (asprintf(&keyarg, "%s%s", strchr(keyring, '/') ? "" : "./",
	             keyring) < 0 || asprintf(&out, "%s/text", dir) < 0)
		abort();
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		abort();
	/* The write end becomes the child's descriptor 3: keep it off 3. */
	if (pipefd[1] <= 3) {
		fd = fcntl(pipefd[1], F_DUPFD_CLOEXEC, 10);
		if (fd < 0)
			abort();
		close(pipefd[1]);
		pipefd[1] = fd;
	}
	{
		char *const argv[] = {
			"gpgv", "--homedir", dir, "--status-fd", "3",
			"--keyring", keyarg, "--output", out, "--",
			(char *)file, NULL,
		};

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
		                                 O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
		                                 O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
		                                 O_WRONLY, 0);
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 3);
		errno = posix_spawnp(&pid, "gpgv", &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(pipefd[1]);
	if (errno != 0) {
		ret = dpkg_put_errno(err, "cannot run gpgv");
		close(pipefd[0]);
		goto out;
	}
	status = read_all(pipefd[0], 1 << 20, &len);
	close(pipefd[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	judge(status, WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, res);
	free(status);
	ret = 0;
	if (res->status == GPGV_GOOD) {
		fd = open(out, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = dpkg_put_errno(err, "%s: gpgv wrote no text",
			                     file);
			goto out;
		}
		res->text = read_all(fd, TEXT_MAX, &res->len);
		close(fd);
		if (res->len >= TEXT_MAX)
			ret = dpkg_put_error(err, "%s: too large", file);
	}
out:
	unlink(out);
	rmdir(dir);
	free(out);
	free(keyarg);
	free(dir);
	return ret;
}

void
gpgv_result_destroy(struct gpgv_result *res)
{
	free(res->text);
	res->text = NULL;
}
