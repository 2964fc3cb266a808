/*
 * queue.c: a store made, and its incoming uploads made jobs.
 *
 * An upload leaves incoming/ only once its job is in the registry: its
 * files are hard-linked into the job's directory, the job recorded, and
 * only then unlinked from incoming/.  Whatever stops this halfway loses no
 * upload: either incoming/ still holds it (it is queued again next time;
 * an upload queued twice is refused the second time by accept as a
 * replay), or the job does.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>

#include "base/strings.h"
#include "debian/changes.h"
#include "debian/dsc.h"
#include "store/publish.h"
#include "store/store-file.h"
#include "store/store.h"

int
store_init(const struct store_config *c, struct dpkg_error *err)
{
	static const char *const dirs[] = { "incoming", "jobs", "reports",
	                                    "states" };
	char *path, *text, *log;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (asprintf(&path, "%s/%s", c->dir, dirs[i]) < 0)
			abort();
		ret = store_mkdirs(path, err);
		free(path);
		if (ret < 0)
			return -1;
	}
	if (asprintf(&path, "%s/store.conf", c->dir) < 0 ||
	    asprintf(&log, "%s/init.log", c->dir) < 0 ||
	    asprintf(&text, "Registry: %s\nKeyring: %s\nSign-With: %s\n"
	             "Codename: %s\nArchitectures: %s\n%s%s%s%s%s%s",
	             c->registry, c->keyring, c->sign_with, c->codename,
	             c->architectures,
	             c->chroot ? "Chroot: " : "", c->chroot ? c->chroot : "",
	             c->chroot ? "\n" : "",
	             c->chroot_suite ? "Chroot-Suite: " : "",
	             c->chroot_suite ? c->chroot_suite : "",
	             c->chroot_suite ? "\n" : "") < 0)
		abort();
	unlink(log);
	ret = store_file_write(path, text, strlen(text), err);
	if (ret == 0)
		ret = publish_init(c, log, err);
	free(path);
	free(text);
	free(log);
	return ret;
}

static bool
has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n > m && strcmp(name + n - m, suffix) == 0;
}

/*
 * The files of upload NAME in INCOMING: itself and those it lists.  An
 * upload that cannot be read is queued alone: accept refuses it, with a
 * report that says why.
 */
static size_t
upload_files(const char *incoming, const char *name, char ***files)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *path;
	size_t n = 0;

	if (asprintf(&path, "%s/%s", incoming, name) < 0)
		abort();
	*files = m_malloc(sizeof(char *));
	(*files)[n++] = m_strdup(name);
	if (has_suffix(name, ".changes")) {
		struct changes ch;
		size_t i;

		if (changes_read(&ch, path, &err) == 0) {
			*files = m_realloc(*files, (ch.nfiles + 1) *
			                   sizeof(char *));
			for (i = 0; i < ch.nfiles; i++)
				(*files)[n++] = m_strdup(ch.files[i].name);
			changes_destroy(&ch);
		}
	} else {
		struct dsc d;
		int i;

		if (dsc_load(&d, path, &err) == 0) {
			*files = m_realloc(*files, (d.nfiles + 1) *
			                   sizeof(char *));
			for (i = 0; i < d.nfiles; i++)
				(*files)[n++] = m_strdup(d.files[i].name);
			dsc_free(&d);
		}
	}
	dpkg_error_destroy(&err);
	free(path);
	return n;
}

/* A job's directory for upload NAME: jobs/NAME.XXXXXX, made. */
static char *
job_dir(const struct store_config *c, const char *name,
        struct dpkg_error *err)
{
	char *dir;

	if (asprintf(&dir, "%s/jobs/%s.XXXXXX", c->dir, name) < 0)
		abort();
	if (mkdtemp(dir) == NULL) {
		dpkg_put_errno(err, "%s: cannot create", dir);
		free(dir);
		return NULL;
	}
	return dir;
}

static int
queue_one(const struct store_config *c, struct registry *r,
          const char *incoming, const char *name, bool quiet,
          struct dpkg_error *err)
{
	char **files, *dir = job_dir(c, name, err), *from, *to;
	size_t i, n = upload_files(incoming, name, &files);
	long long id;
	int ret = -1;

	if (dir == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		if (asprintf(&from, "%s/%s", incoming, files[i]) < 0 ||
		    asprintf(&to, "%s/%s", dir, files[i]) < 0)
			abort();
		ret = link(from, to);
		if (ret < 0)
			dpkg_put_errno(err, "%s: cannot link to %s (incoming/ "
			               "and jobs/ must share a file system)",
			               from, to);
		free(from);
		free(to);
		if (ret < 0)
			goto out;
	}
	ret = registry_job_add(r, dir + strlen(c->dir) + 1, name, &id, err);
	if (ret < 0)
		goto out;
	if (!quiet)
		printf("extras-store: job %lld (%s): queued\n", id, name);
	for (i = 0; i < n; i++) {
		if (asprintf(&from, "%s/%s", incoming, files[i]) < 0)
			abort();
		unlink(from);
		free(from);
	}
out:
	if (ret < 0 && dir != NULL) {
		struct dpkg_error ignored = DPKG_ERROR_INIT;

		store_remove_tree(dir, &ignored);
		dpkg_error_destroy(&ignored);
	}
	strings_free(files, n);
	free(dir);
	return ret;
}

static int
cmp_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Queue the uploads ending in SUFFIX, in name order. */
static int
queue_suffix(const struct store_config *c, struct registry *r,
             const char *incoming, const char *suffix, bool quiet,
             int *queued, struct dpkg_error *err)
{
	struct dirent **names;
	int i, n = scandir(incoming, &names, NULL, cmp_name), ret = 0;

	if (n < 0)
		return dpkg_put_errno(err, "%s: cannot read", incoming);
	for (i = 0; i < n; i++) {
		char *path;
		struct stat st;

		if (ret == 0 && names[i]->d_name[0] != '.' &&
		    has_suffix(names[i]->d_name, suffix)) {
			if (asprintf(&path, "%s/%s", incoming,
			             names[i]->d_name) < 0)
				abort();
			/* Gone already: the .dsc of a .changes queued. */
			if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				ret = queue_one(c, r, incoming,
				                names[i]->d_name, quiet, err);
				if (ret == 0)
					(*queued)++;
			}
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int
store_queue(const struct store_config *c, struct registry *r, bool quiet,
            int *queued, struct dpkg_error *err)
{
	char *incoming;
	int ret;

	*queued = 0;
	if (asprintf(&incoming, "%s/incoming", c->dir) < 0)
		abort();
	/* The .changes first: each takes its .dsc along. */
	ret = queue_suffix(c, r, incoming, ".changes", quiet, queued,
	                   err);
	if (ret == 0)
		ret = queue_suffix(c, r, incoming, ".dsc", quiet, queued,
		                   err);
	free(incoming);
	return ret;
}
