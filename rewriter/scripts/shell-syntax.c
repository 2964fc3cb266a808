/*
 * shell-syntax.c: a shell script's syntax tree, as Debian's shfmt parses
 * it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scripts/shell-syntax.h"

extern char **environ;

/* The syntax tree nests a few JSON levels for each shell level. */
#define JSON_DEPTH 2000

/* A file descriptor holding LEN bytes of DATA, at offset 0. */
static int
memory_file(const char *name, const char *data, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		done += n;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read FD to its end into a new NUL-terminated buffer. */
static char *
read_all(int fd, size_t *len)
{
	size_t size = 65536, n = 0;
	char *buf = malloc(size + 1);

	if (buf == NULL)
		return NULL;
	for (;;) {
		ssize_t r;

		if (n == size) {
			char *b = realloc(buf, 2 * size + 1);

			if (b == NULL) {
				free(buf);
				return NULL;
			}
			buf = b;
			size *= 2;
		}
		r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* shfmt's "NAME:LINE:COL: message" as "LINE: message" in ERR. */
static void
syntax_error(const char *out, int *line, struct dpkg_error *err)
{
	const char *p = strstr(out, "script:");
	size_t n;

	if (p == NULL || sscanf(p, "script:%d:", line) != 1) {
		*line = 1;
		p = out;
	} else {
		p = strchr(p + 7, ':') + 1;
		p += strspn(p, "0123456789");
		p += strspn(p, ": ");
	}
	n = strcspn(p, "\n");
	dpkg_put_error(err, "is not valid shell: %.*s",
	               (int)(n > 200 ? 200 : n), p);
}

struct json_object *
shell_parse(const char *text, size_t len, enum shell_dialect dialect,
            int *line, struct dpkg_error *err)
{
	char *argv[] = {
		"shfmt", "-ln", dialect == SHELL_BASH ? "bash" : "posix",
		"--filename", "script", "--to-json", NULL,
	};
	posix_spawn_file_actions_t fa;
	int in = -1, errfd = -1, out[2] = { -1, -1 }, status;
	char *json = NULL, *msg;
	size_t jlen = 0, mlen;
	struct json_object *tree = NULL;
	struct json_tokener *tok;
	pid_t pid;

	*line = 0;
	if (len > SHELL_SCRIPT_MAX) {
		dpkg_put_error(err, "bigger than %d KiB: not a maintainer "
		               "script written by hand",
		               SHELL_SCRIPT_MAX / 1024);
		return NULL;
	}
	in = memory_file("script", text, len);
	errfd = memfd_create("shfmt-stderr", MFD_CLOEXEC);
	if (in < 0 || errfd < 0 || pipe2(out, O_CLOEXEC) < 0) {
		dpkg_put_error(err, "cannot run shfmt: %s", strerror(errno));
		goto done;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, errfd, 2);
	errno = posix_spawnp(&pid, "shfmt", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	out[1] = -1;
	if (errno != 0) {
		dpkg_put_error(err, "cannot run shfmt (install the shfmt "
		               "package): %s", strerror(errno));
		goto done;
	}
	json = read_all(out[0], &jlen);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (lseek(errfd, 0, SEEK_SET) == 0 &&
		    (msg = read_all(errfd, &mlen)) != NULL) {
			if (WIFEXITED(status) && WEXITSTATUS(status) == 1 &&
			    strstr(msg, "script:") != NULL) {
				syntax_error(msg, line, err);
			} else {
				mlen = strcspn(msg, "\n");
				dpkg_put_error(err, "shfmt failed: %.*s",
				               (int)(mlen > 200 ? 200 : mlen),
				               msg);
			}
			free(msg);
		} else {
			dpkg_put_error(err, "shfmt failed");
		}
		goto done;
	}
	if (json == NULL) {
		dpkg_put_error(err, "cannot read shfmt's output: %s",
		               strerror(errno));
		goto done;
	}
	tok = json_tokener_new_ex(JSON_DEPTH);
	if (tok == NULL)
		abort();
	tree = json_tokener_parse_ex(tok, json, (int)jlen);
	if (tree == NULL || json_tokener_get_error(tok) != json_tokener_success ||
	    strcmp(shell_type(tree), "File") != 0) {
		dpkg_put_error(err, "cannot read shfmt's syntax tree: %s",
		               json_tokener_error_desc(
		                       json_tokener_get_error(tok)));
		json_object_put(tree);
		tree = NULL;
	}
	json_tokener_free(tok);
done:
	free(json);
	if (in >= 0)
		close(in);
	if (errfd >= 0)
		close(errfd);
	if (out[0] >= 0)
		close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
	return tree;
}

struct json_object *
shell_get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

const char *
shell_type(struct json_object *o)
{
	struct json_object *t = shell_get(o, "Type");

	return t && json_object_is_type(t, json_type_string) ?
	       json_object_get_string(t) : "";
}

size_t
shell_offset(struct json_object *o, const char *which)
{
	int64_t v = json_object_get_int64(shell_get(shell_get(o, which),
	                                            "Offset"));

	return v < 0 ? 0 : (size_t)v;
}

int
shell_line(struct json_object *o, const char *which)
{
	return json_object_get_int(shell_get(shell_get(o, which), "Line"));
}

size_t
shell_count(struct json_object *o, const char *key)
{
	struct json_object *a = shell_get(o, key);

	if (a == NULL || !json_object_is_type(a, json_type_array))
		return 0;
	return json_object_array_length(a);
}

struct json_object *
shell_at(struct json_object *o, const char *key, size_t i)
{
	struct json_object *a = shell_get(o, key);

	if (a == NULL || !json_object_is_type(a, json_type_array) ||
	    i >= json_object_array_length(a))
		return NULL;
	return json_object_array_get_idx(a, i);
}

static const char *
value_of(struct json_object *o)
{
	struct json_object *v = shell_get(o, "Value");

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/*
 * Append the value of literal S to FP: outside quotes a backslash quotes
 * the next character (and joins lines); inside double quotes only before
 * $ ` " \ and a newline.  Returns false for what the shell would expand
 * (globs and a leading ~ outside quotes).
 */
static bool
put_unescaped(FILE *fp, const char *s, bool dquoted, bool first)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1] != '\0' &&
		    (!dquoted || strchr("$`\"\\\n", s[1]) != NULL)) {
			s++;
			if (*s != '\n')
				fputc(*s, fp);
			continue;
		}
		if (!dquoted && (strchr("*?", *s) != NULL ||
		                 (*s == '[' && strchr(s, ']') != NULL) ||
		                 (first && *s == '~')))
			return false;
		fputc(*s, fp);
		first = false;
	}
	return true;
}

char *
shell_word_literal(struct json_object *w)
{
	char *buf = NULL;
	size_t size = 0, i, j;
	FILE *fp = open_memstream(&buf, &size);
	bool ok = true;

	if (fp == NULL)
		abort();
	for (i = 0; ok && i < shell_count(w, "Parts"); i++) {
		struct json_object *p = shell_at(w, "Parts", i);
		const char *t = shell_type(p), *v = value_of(p);

		if (strcmp(t, "Lit") == 0 && v != NULL) {
			ok = put_unescaped(fp, v, false, i == 0);
		} else if (strcmp(t, "SglQuoted") == 0 && v != NULL &&
		           !json_object_get_boolean(shell_get(p, "Dollar"))) {
			fputs(v, fp);
		} else if (strcmp(t, "DblQuoted") == 0 &&
		           !json_object_get_boolean(shell_get(p, "Dollar"))) {
			for (j = 0; ok && j < shell_count(p, "Parts"); j++) {
				struct json_object *q = shell_at(p, "Parts", j);

				ok = strcmp(shell_type(q), "Lit") == 0 &&
				     value_of(q) != NULL &&
				     put_unescaped(fp, value_of(q), true, false);
			}
		} else {
			ok = false;
		}
	}
	fclose(fp);
	if (!ok || shell_count(w, "Parts") == 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
