/*
 * publish.c: reprepro in a staging copy, swapped in with one rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <dpkg/dpkg.h>

#include "store/publish.h"
#include "store/store-file.h"

/* Run ARGV (a tool the store needs); its failure is the store's error. */
static int
run(const char *const *argv, const char *log, struct dpkg_error *err)
{
	int status;

	if (store_spawn(argv, NULL, log, &status, err) < 0)
		return -1;
	if (status != 0)
		return dpkg_put_error(err, "%s failed (exit status %d; see %s)",
		                      argv[0], status, log);
	return 0;
}

static char *
path_in(const struct store_config *c, const char *fmt, long n)
{
	char *rel, *full;

	if (asprintf(&rel, fmt, n) < 0 ||
	    asprintf(&full, "%s/%s", c->dir, rel) < 0)
		abort();
	free(rel);
	return full;
}

/* reprepro on state DIR (states/N). */
static int
reprepro(const struct store_config *c, const char *state,
         const char *const *args, size_t nargs, const char *log,
         struct dpkg_error *err)
{
	const char **argv = m_malloc((nargs + 10) * sizeof(*argv));
	char *base, *conf, *db, *out;
	size_t n = 0, i;
	int ret;

	if (asprintf(&base, "--basedir=%s/reprepro", c->dir) < 0 ||
	    asprintf(&conf, "--confdir=%s/reprepro/conf", c->dir) < 0 ||
	    asprintf(&db, "--dbdir=%s/db", state) < 0 ||
	    asprintf(&out, "--outdir=%s/out", state) < 0)
		abort();
	argv[n++] = "reprepro";
	argv[n++] = "--silent";
	argv[n++] = base;
	argv[n++] = conf;
	argv[n++] = db;
	argv[n++] = out;
	for (i = 0; i < nargs; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	ret = run(argv, log, err);
	free(base);
	free(conf);
	free(db);
	free(out);
	free(argv);
	return ret;
}

/* Point "public" at states/N/out with one rename. */
static int
swap_public(const struct store_config *c, long n, struct dpkg_error *err)
{
	char *target, *link, *tmp;
	int ret = 0;

	if (asprintf(&target, "states/%ld/out", n) < 0 ||
	    asprintf(&link, "%s/public", c->dir) < 0 ||
	    asprintf(&tmp, "%s/public.new", c->dir) < 0)
		abort();
	unlink(tmp);
	if (symlink(target, tmp) < 0 || rename(tmp, link) < 0) {
		ret = dpkg_put_errno(err, "%s: cannot publish", link);
		unlink(tmp);
	}
	free(target);
	free(link);
	free(tmp);
	return ret;
}

/* The state "public" points at, or -1. */
static long
current_state(const struct store_config *c, struct dpkg_error *err)
{
	char *link, target[PATH_MAX];
	ssize_t len;
	long n = -1;
	char end;

	if (asprintf(&link, "%s/public", c->dir) < 0)
		abort();
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0) {
		dpkg_put_errno(err, "%s: cannot read the link", link);
	} else {
		target[len] = '\0';
		if (sscanf(target, "states/%ld/out%c", &n, &end) != 1 || n < 0) {
			dpkg_put_error(err, "%s: points at %s, not a state",
			               link, target);
			n = -1;
		}
	}
	free(link);
	return n;
}

int
publish_init(const struct store_config *c, const char *log,
             struct dpkg_error *err)
{
	char *conf = NULL, *dist = NULL, *text = NULL, *state = NULL;
	char *key = NULL, *out = NULL;
	const char *args[] = { "export", c->codename };
	int ret = -1;

	conf = path_in(c, "reprepro/conf", 0);
	state = path_in(c, "states/%ld", 0);
	if (asprintf(&dist, "%s/distributions", conf) < 0 ||
	    asprintf(&out, "%s/out", state) < 0 ||
	    asprintf(&key, "%s/store.gpg", out) < 0 ||
	    asprintf(&text, "Origin: extras store\nLabel: extras store\n"
	             "Codename: %s\nSuite: %s\nArchitectures: %s\n"
	             "Components: main\nDescription: extras apps\n"
	             "SignWith: %s\n", c->codename, c->codename,
	             c->architectures, c->sign_with) < 0)
		abort();
	if (store_mkdirs(conf, err) < 0 ||
	    store_file_write(dist, text, strlen(text), err) < 0 ||
	    store_remove_tree(state, err) < 0 ||
	    store_mkdirs(out, err) < 0 ||
	    reprepro(c, state, args, 2, log, err) < 0)
		goto out;
	{
		const char *gpg[] = { "gpg", "--batch", "--yes", "--output",
		                      key, "--export", c->sign_with, NULL };

		if (run(gpg, log, err) < 0)
			goto out;
	}
	ret = swap_public(c, 0, err);
out:
	free(conf);
	free(dist);
	free(text);
	free(state);
	free(key);
	free(out);
	return ret;
}

/* states/N+1 from states/N: db copied, pool hard-linked, dists copied. */
static int
stage(const char *from, const char *to, const char *log,
      struct dpkg_error *err)
{
	char *a, *b, *c2, *d;
	int ret;

	if (asprintf(&a, "%s/db", from) < 0 || asprintf(&b, "%s/out", from) < 0 ||
	    asprintf(&c2, "%s/db", to) < 0 || asprintf(&d, "%s/out", to) < 0)
		abort();
	{
		const char *db[] = { "cp", "-a", a, c2, NULL };
		const char *out[] = { "cp", "-al", b, d, NULL };

		ret = store_remove_tree(to, err);
		if (ret == 0)
			ret = store_mkdirs(to, err);
		if (ret == 0)
			ret = run(db, log, err);
		if (ret == 0)
			ret = run(out, log, err);
	}
	free(a);
	free(c2);
	if (ret == 0) {
		/* dists/ is the one part reprepro rewrites: a copy of its
		 * own, so the published files are never touched. */
		char *dists_from, *dists_to;

		if (asprintf(&dists_from, "%s/dists", b) < 0 ||
		    asprintf(&dists_to, "%s/dists", d) < 0)
			abort();
		ret = store_remove_tree(dists_to, err);
		if (ret == 0) {
			const char *cp[] = { "cp", "-a", dists_from, dists_to,
			                     NULL };

			ret = run(cp, log, err);
		}
		free(dists_from);
		free(dists_to);
	}
	free(b);
	free(d);
	return ret;
}

int
publish_debs(const struct store_config *c, const char *const *debs,
             size_t ndebs, const char *log, struct dpkg_error *err)
{
	char *lock = path_in(c, "publish.lock", 0), *from = NULL, *to = NULL;
	const char **args = m_malloc((ndebs + 2) * sizeof(*args));
	long n;
	int fd, ret = -1;
	size_t i;

	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		dpkg_put_errno(err, "%s: cannot lock", lock);
		goto out;
	}
	n = current_state(c, err);
	if (n < 0)
		goto out;
	from = path_in(c, "states/%ld", n);
	to = path_in(c, "states/%ld", n + 1);
	args[0] = "includedeb";
	args[1] = c->codename;
	for (i = 0; i < ndebs; i++)
		args[i + 2] = debs[i];
	if (stage(from, to, log, err) < 0 ||
	    reprepro(c, to, args, ndebs + 2, log, err) < 0 ||
	    swap_public(c, n + 1, err) < 0) {
		struct dpkg_error ignored = DPKG_ERROR_INIT;

		store_remove_tree(to, &ignored);
		dpkg_error_destroy(&ignored);
		goto out;
	}
	/* The state before the one just replaced: nobody reads it now. */
	if (n > 0) {
		char *old = path_in(c, "states/%ld", n - 1);

		ret = store_remove_tree(old, err);
		free(old);
	} else {
		ret = 0;
	}
out:
	if (fd >= 0)
		close(fd);
	free(args);
	free(lock);
	free(from);
	free(to);
	return ret;
}
