/*
 * command.c: the commands of extras-store (see command.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>

#include "conflicts/registry.h"
#include "store/command.h"
#include "store/store-file.h"
#include "store/store.h"

#define DEFAULT_LEASE (3 * 3600)

/* A command that takes no argument, given ARGS: 0, or STORE_USAGE. */
static int
no_argument(const char *name, const char *const *args, struct dpkg_error *err)
{
	if (args[0] == NULL)
		return 0;
	dpkg_put_error(err, "%s takes no argument", name);
	return STORE_USAGE;
}

static int
open_store(const struct store_command *cmd, struct store_config *c,
           struct registry **r, struct dpkg_error *err)
{
	if (store_config_read(c, cmd->store_dir, err) < 0)
		return STORE_FAILED;
	if (registry_open(r, c->registry, true, err) < 0) {
		store_config_destroy(c);
		return STORE_FAILED;
	}
	return 0;
}

static void
close_store(struct store_config *c, struct registry *r)
{
	registry_close(r);
	store_config_destroy(c);
}

/* PATH made absolute (it need not exist yet), so that store.conf means
 * what it meant wherever the store is run from; NULL with ERR. */
static char *
absolute(const char *path, struct dpkg_error *err)
{
	char cwd[PATH_MAX], *full;

	if (path[0] == '/')
		return m_strdup(path);
	if (getcwd(cwd, sizeof(cwd)) == NULL) {
		dpkg_put_error(err, "cannot get the current directory: %s",
		               strerror(errno));
		return NULL;
	}
	if (asprintf(&full, "%s/%s", cwd, path) < 0)
		abort();
	return full;
}

/* C's settings from CMD's options, the defaults for those not given. */
static int
init_config(const struct store_command *cmd, const char *sign_with,
            struct store_config *c, struct dpkg_error *err)
{
	c->dir = absolute(cmd->store_dir, err);
	if (c->dir == NULL)
		return -1;
	c->registry = strstr(cmd->registry, "://") ?
	              m_strdup(cmd->registry) : absolute(cmd->registry, err);
	if (c->registry == NULL)
		return -1;
	c->keyring = absolute(cmd->keyring, err);
	if (c->keyring == NULL)
		return -1;
	c->sign_with = m_strdup(sign_with);
	c->codename = m_strdup(cmd->codename ? cmd->codename : "extras");
	c->architectures = m_strdup(cmd->architectures ? cmd->architectures :
	                            store_default_architecture());
	c->chroot = cmd->chroot ? m_strdup(cmd->chroot) : NULL;
	c->chroot_suite = cmd->chroot_suite ? m_strdup(cmd->chroot_suite) :
	                  cmd->chroot ? m_strdup("bookworm") : NULL;
	return 0;
}

int
store_init_command(const struct store_command *cmd, const char *const *args,
                   struct dpkg_error *err)
{
	struct store_config c = { 0 };
	struct registry *r;
	char canon[65];
	const char *why;
	int rc = STORE_FAILED;

	if (no_argument("init", args, err) < 0)
		return STORE_USAGE;
	if (cmd->registry == NULL || cmd->keyring == NULL ||
	    cmd->sign_with == NULL) {
		dpkg_put_error(err, "init needs --registry, --keyring and "
		               "--sign-with");
		return STORE_USAGE;
	}
	why = registry_check_fingerprint(cmd->sign_with, canon);
	if (why != NULL) {
		dpkg_put_error(err, "--sign-with '%s' %s", cmd->sign_with,
		               why);
		return STORE_USAGE;
	}
	if (store_mkdirs(cmd->store_dir, err) < 0 ||
	    init_config(cmd, canon, &c, err) < 0 || store_init(&c, err) < 0)
		goto out;
	/* The registry made now, not by the first upload. */
	if (registry_open(&r, c.registry, true, err) < 0)
		goto out;
	registry_close(r);
	printf("extras-store: store %s made; users add %s/public "
	       "(signed by %s, key in public/store.gpg)\n", c.dir, c.dir,
	       c.sign_with);
	rc = 0;
out:
	store_config_destroy(&c);
	return rc;
}

int
store_queue_command(const struct store_command *cmd, const char *const *args,
                    struct dpkg_error *err)
{
	struct store_config c;
	struct registry *r;
	int queued, rc;

	if (no_argument("queue", args, err) < 0)
		return STORE_USAGE;
	rc = open_store(cmd, &c, &r, err);
	if (rc < 0)
		return rc;
	if (store_queue(&c, r, cmd->quiet, &queued, err) < 0)
		rc = STORE_FAILED;
	else if (!cmd->quiet)
		printf("extras-store: %d upload(s) queued\n", queued);
	close_store(&c, r);
	return rc;
}

/* The lease CMD gives (--lease), or the default: 0, or STORE_USAGE. */
static int
lease(const struct store_command *cmd, int *seconds, struct dpkg_error *err)
{
	char *end;
	long v;

	*seconds = DEFAULT_LEASE;
	if (cmd->lease == NULL)
		return 0;
	v = strtol(cmd->lease, &end, 10);
	if (*cmd->lease == '\0' || *end != '\0' || v < 0 || v > INT_MAX) {
		dpkg_put_error(err, "--lease '%s' is not a number of seconds",
		               cmd->lease);
		return STORE_USAGE;
	}
	*seconds = v;
	return 0;
}

/* Work on the jobs of the open store C, as the worker CMD names. */
static int
work(const struct store_command *cmd, struct store_config *c,
     struct registry *r, struct dpkg_error *err)
{
	struct store_worker w = { 0 };
	char host[HOST_NAME_MAX + 1], *name = NULL;
	int published, refused, rc;

	if (cmd->worker == NULL) {
		if (gethostname(host, sizeof(host)) < 0)
			strcpy(host, "localhost");
		host[sizeof(host) - 1] = '\0';
		if (asprintf(&name, "%s:%d", host, (int)getpid()) < 0)
			abort();
	}
	w.name = cmd->worker ? cmd->worker : name;
	rc = lease(cmd, &w.lease, err);
	if (rc == 0) {
		w.once = cmd->once;
		w.quiet = cmd->quiet;
		if (store_work(c, r, &w, &published, &refused, err) < 0)
			rc = STORE_FAILED;
		else if (!cmd->quiet)
			printf("extras-store: %d published, %d refused\n",
			       published, refused);
	}
	free(name);
	return rc;
}

int
store_work_command(const struct store_command *cmd, const char *const *args,
                   struct dpkg_error *err)
{
	struct store_config c;
	struct registry *r;
	int rc;

	if (no_argument("work", args, err) < 0)
		return STORE_USAGE;
	rc = open_store(cmd, &c, &r, err);
	if (rc < 0)
		return rc;
	rc = work(cmd, &c, r, err);
	close_store(&c, r);
	return rc;
}

int
store_run_command(const struct store_command *cmd, const char *const *args,
                  struct dpkg_error *err)
{
	struct store_config c;
	struct registry *r;
	int queued, rc;

	if (no_argument("run", args, err) < 0)
		return STORE_USAGE;
	rc = open_store(cmd, &c, &r, err);
	if (rc < 0)
		return rc;
	if (store_queue(&c, r, cmd->quiet, &queued, err) < 0)
		rc = STORE_FAILED;
	else
		rc = work(cmd, &c, r, err);
	close_store(&c, r);
	return rc;
}

static void
print_job(void *ctx, const struct registry_job *job)
{
	(void)ctx;
	printf("%lld\t%s\t%d\t%s\t%s\n", job->id, job->state, job->attempts,
	       job->worker ? job->worker : "-", job->upload);
}

int
store_status_command(const struct store_command *cmd, const char *const *args,
                     struct dpkg_error *err)
{
	struct store_config c;
	struct registry *r;
	int rc;

	if (no_argument("status", args, err) < 0)
		return STORE_USAGE;
	rc = open_store(cmd, &c, &r, err);
	if (rc < 0)
		return rc;
	if (registry_job_list(r, print_job, NULL, err) < 0)
		rc = STORE_FAILED;
	close_store(&c, r);
	return rc;
}
