/*
 * apparmor-install.c: executables, compilation and maintainer-script
 * snippets of a generated AppArmor profile.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sha2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apparmor/apparmor-install.h"
#include "base/strings.h"
#include "base/template.h"
#include "base/tree.h"

extern char **environ;

/* How much of the parser's message is kept: it says what is wrong first. */
#define PARSER_OUTPUT_MAX 2048

static bool
listed(char *const *list, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], path) == 0)
			return true;
	return false;
}

int
apparmor_executables(const char *dir, const struct extras_namespace *ns,
                     char ***list, size_t *n, struct dpkg_error *err)
{
	struct tree tree;
	struct stat st;
	char top[4096], *path;
	size_t i, before = *n;

	if ((size_t)snprintf(top, sizeof(top), "%s/%s", dir, ns->rel) >=
	    sizeof(top)) {
		dpkg_put_error(err, "%s: path too long", dir);
		return -1;
	}
	if (lstat(top, &st) < 0 && errno == ENOENT)
		return 0;
	if (tree_walk(&tree, top, err) < 0)
		return -1;
	for (i = 0; i < tree.count; i++) {
		const struct tree_entry *e = &tree.entries[i];
		char **v;

		if (!S_ISREG(e->st.st_mode) ||
		    (e->st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) == 0)
			continue;
		if (asprintf(&path, "%s/%s", ns->path, e->path) < 0)
			path = NULL;
		if (path != NULL && listed(*list, before, path)) {
			free(path);
			continue;
		}
		v = path ? realloc(*list, (*n + 1) * sizeof(*v)) : NULL;
		if (v == NULL) {
			free(path);
			tree_free(&tree);
			dpkg_put_error(err, "%s: out of memory", top);
			return -1;
		}
		*list = v;
		v[(*n)++] = path;
	}
	tree_free(&tree);
	return 0;
}

const char *
apparmor_parser(void)
{
	static char found[4096];
	const char *path = getenv("PATH");
	const char *fallback[] = { "/usr/sbin", "/sbin", NULL };
	size_t i;

	while (path != NULL && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);

		if (len > 0 && len < sizeof(found) - 32) {
			snprintf(found, sizeof(found), "%.*s/apparmor_parser",
			         (int)len, path);
			if (access(found, X_OK) == 0)
				return found;
		}
		path = end ? end + 1 : NULL;
	}
	for (i = 0; fallback[i]; i++) {
		snprintf(found, sizeof(found), "%s/apparmor_parser",
		         fallback[i]);
		if (access(found, X_OK) == 0)
			return found;
	}
	return NULL;
}

/* Read FD to its end, keeping the first SIZE - 1 bytes in BUF. */
static void
read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	char discard[512];

	for (;;) {
		ssize_t r;

		if (len + 1 < size)
			r = read(fd, buf + len, size - 1 - len);
		else
			r = read(fd, discard, sizeof(discard));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (len + 1 < size)
			len += (size_t)r;
	}
	buf[len] = '\0';
}

/* The parser's lines joined into one, white space trimmed. */
static void
one_line(char *s)
{
	char *out = s, *p = s;

	while (*p == '\n' || *p == ' ')
		p++;
	for (; *p; p++) {
		if (*p != '\n') {
			*out++ = *p;
			continue;
		}
		while (p[1] == '\n' || p[1] == ' ')
			p++;
		if (p[1] != '\0') {
			*out++ = ';';
			*out++ = ' ';
		}
	}
	*out = '\0';
}

int
apparmor_validate(const char *profile, const char *features,
                  struct dpkg_error *err)
{
	const char *parser = apparmor_parser();
	char *argv[] = { "apparmor_parser", "-QK", "-M", (char *)features,
	                 (char *)profile, NULL };
	char output[PARSER_OUTPUT_MAX];
	posix_spawn_file_actions_t actions;
	int fds[2], status, rc;
	pid_t pid;

	if (parser == NULL) {
		dpkg_put_error(err, "apparmor_parser not found: the apparmor "
		               "package is needed to compile %s", profile);
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		dpkg_put_error(err, "cannot create a pipe: %s",
		               strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
	posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
	rc = posix_spawn(&pid, parser, &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		dpkg_put_error(err, "cannot run %s: %s", parser, strerror(rc));
		return -1;
	}
	read_all(fds[0], output, sizeof(output));
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			dpkg_put_error(err, "cannot wait for %s: %s", parser,
			               strerror(errno));
			return -1;
		}
	}
	one_line(output);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && output[0] == '\0')
		return 0;
	if (output[0] == '\0')
		snprintf(output, sizeof(output), "exit status %d",
		         WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
		         WTERMSIG(status));
	dpkg_put_error(err, "%s: does not compile: %s", profile, output);
	return -1;
}

int
apparmor_snippet_load(struct apparmor_snippet *s, const char *templates,
                      const char *script, const char *name,
                      struct dpkg_error *err)
{
	const struct template_subst subst[] = { { "NAME", name } };
	const char *field, *p;
	struct template t;
	unsigned long lineno;
	char path[4096];
	size_t outlen = 0;
	FILE *fp;
	int rc;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/snippets/%s-apparmor", templates, script);
	rc = template_load(&t, path, err);
	if (rc == 1)
		dpkg_put_error(err, "%s: no such snippet", path);
	if (rc != 0)
		return -1;
	field = template_field(&t, "Snippet");
	if (field == NULL || strcmp(field, script) != 0) {
		dpkg_put_error(err, "%s: header field Snippet is not '%s'",
		               path, script);
		template_free(&t);
		return -1;
	}
	field = template_field(&t, "Depends");
	s->script = strdup(script);
	s->depends = field ? strdup(field) : NULL;
	fp = open_memstream(&s->text, &outlen);
	if (s->script == NULL || (field && s->depends == NULL) || fp == NULL) {
		if (fp != NULL)
			fclose(fp);
		dpkg_put_error(err, "%s: out of memory", path);
		template_free(&t);
		apparmor_snippet_free(s);
		return -1;
	}
	for (p = t.body, lineno = t.body_line; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = template_expand_line(&t, lineno, p, len, subst, 1,
		                                  err);

		if (line == NULL) {
			fclose(fp);
			template_free(&t);
			apparmor_snippet_free(s);
			return -1;
		}
		fprintf(fp, "%s\n", line);
		free(line);
		p += len + (nl != NULL);
	}
	fclose(fp);
	template_free(&t);
	return 0;
}

void
apparmor_snippet_free(struct apparmor_snippet *s)
{
	free(s->script);
	free(s->text);
	free(s->depends);
	memset(s, 0, sizeof(*s));
}

/* Hash FILE's bytes into CTX; false when it cannot be read. */
static bool
hash_file(SHA2_CTX *ctx, const char *file)
{
	unsigned char buf[65536];
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		SHA256Update(ctx, buf, (size_t)n);
	close(fd);
	return n == 0;
}

/*
 * The stamp of the profile TEXT (LEN bytes; NULL: the file PROFILE's
 * bytes), FEATURES and PARSER (ST its status) in STAMPS, into STAMP;
 * false when a file cannot be read.
 */
static bool
stamp_path(char *stamp, size_t size, const char *stamps, const char *parser,
           const struct stat *st, const char *profile, const char *text,
           size_t len, const char *features)
{
	char digest[SHA256_DIGEST_STRING_LENGTH];
	SHA2_CTX ctx;

	/* The profile, the features and the parser that compiled them. */
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)parser, strlen(parser) + 1);
	SHA256Update(&ctx, (const uint8_t *)&st->st_size, sizeof(st->st_size));
	SHA256Update(&ctx, (const uint8_t *)&st->st_mtim, sizeof(st->st_mtim));
	if (text != NULL)
		SHA256Update(&ctx, (const uint8_t *)text, len);
	else if (!hash_file(&ctx, profile))
		return false;
	if (!hash_file(&ctx, features))
		return false;
	SHA256End(&ctx, digest);
	snprintf(stamp, size, "%s/%s", stamps, digest);
	return true;
}

bool
apparmor_validated_before(const char *text, size_t len, const char *features,
                          const char *stamps)
{
	const char *parser = apparmor_parser();
	char stamp[4096];
	struct stat st;

	return stamps != NULL && parser != NULL && stat(parser, &st) == 0 &&
	       stamp_path(stamp, sizeof(stamp), stamps, parser, &st, NULL,
	                  text, len, features) &&
	       access(stamp, F_OK) == 0;
}

int
apparmor_validate_cached(const char *profile, const char *features,
                         const char *stamps, struct dpkg_error *err)
{
	const char *parser = apparmor_parser();
	char stamp[4096];
	struct stat st;
	int fd;

	if (stamps == NULL || parser == NULL || stat(parser, &st) < 0 ||
	    !stamp_path(stamp, sizeof(stamp), stamps, parser, &st, profile,
	                NULL, 0, features))
		return apparmor_validate(profile, features, err);
	if (access(stamp, F_OK) == 0)
		return 0;
	if (apparmor_validate(profile, features, err) < 0)
		return -1;
	/* Only a cache: a stamp that cannot be written costs a compile. */
	for (char *slash = strchr(stamp + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(stamp, 0755) < 0 && errno != EEXIST)
			return 0;
		*slash = '/';
	}
	fd = open(stamp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return 0;
}
