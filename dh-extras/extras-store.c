/*
 * extras-store: the store's pipeline, from incoming signed uploads to a
 * published apt repository, with jobs in the registry.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/version.h"
#include "conflicts/registry.h"
#include "store/store-file.h"
#include "store/store.h"

#include "extras-store.usage.h"

#define DEFAULT_LEASE (3 * 3600)

static const char *store_dir = ".";
static const char *registry_arg, *keyring, *sign_with, *codename;
static const char *architectures, *chroot_arg, *chroot_suite;
static const char *worker_name, *lease_arg;
static int once, quiet;

static const struct cmdinfo cmdinfos[] = {
	{ "store", 's', 1, NULL, &store_dir, NULL, 0, NULL, NULL },
	{ "registry", 'd', 1, NULL, &registry_arg, NULL, 0, NULL, NULL },
	{ "keyring", 0, 1, NULL, &keyring, NULL, 0, NULL, NULL },
	{ "sign-with", 0, 1, NULL, &sign_with, NULL, 0, NULL, NULL },
	{ "codename", 0, 1, NULL, &codename, NULL, 0, NULL, NULL },
	{ "architectures", 0, 1, NULL, &architectures, NULL, 0, NULL, NULL },
	{ "chroot", 0, 1, NULL, &chroot_arg, NULL, 0, NULL, NULL },
	{ "chroot-suite", 0, 1, NULL, &chroot_suite, NULL, 0, NULL, NULL },
	{ "worker", 0, 1, NULL, &worker_name, NULL, 0, NULL, NULL },
	{ "lease", 0, 1, NULL, &lease_arg, NULL, 0, NULL, NULL },
	{ "once", 0, 0, &once, NULL, NULL, 1, NULL, NULL },
	{ "quiet", 'q', 0, &quiet, NULL, NULL, 1, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

static void
fail(struct dpkg_error *err)
{
	fprintf(stderr, "extras-store: error: %s\n", err->str);
	exit(2);
}

static void
open_store(struct store_config *c, struct registry **r)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	if (store_config_read(c, store_dir, &err) < 0 ||
	    registry_open(r, c->registry, true, &err) < 0)
		fail(&err);
}

/* PATH made absolute (it need not exist yet), so that store.conf means
 * what it meant wherever the store is run from. */
static char *
absolute(const char *path)
{
	char cwd[PATH_MAX], *full;

	if (path[0] == '/')
		return m_strdup(path);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		ohshite("cannot get the current directory");
	if (asprintf(&full, "%s/%s", cwd, path) < 0)
		abort();
	return full;
}

static int
do_init(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct store_config c = { 0 };
	struct registry *r;
	char canon[65];
	const char *why;

	if (args[0] != NULL)
		badusage("init takes no argument");
	if (registry_arg == NULL || keyring == NULL || sign_with == NULL)
		badusage("init needs --registry, --keyring and --sign-with");
	why = registry_check_fingerprint(sign_with, canon);
	if (why != NULL)
		badusage("--sign-with '%s' %s", sign_with, why);
	if (store_mkdirs(store_dir, &err) < 0)
		fail(&err);
	c.dir = absolute(store_dir);
	c.registry = strstr(registry_arg, "://") ? m_strdup(registry_arg) :
	             absolute(registry_arg);
	c.keyring = absolute(keyring);
	c.sign_with = m_strdup(canon);
	c.codename = m_strdup(codename ? codename : "extras");
	c.architectures = m_strdup(architectures ? architectures :
	                           store_default_architecture());
	c.chroot = chroot_arg ? m_strdup(chroot_arg) : NULL;
	c.chroot_suite = chroot_suite ? m_strdup(chroot_suite) :
	                 chroot_arg ? m_strdup("bookworm") : NULL;
	if (store_init(&c, &err) < 0)
		fail(&err);
	/* The registry made now, not by the first upload. */
	if (registry_open(&r, c.registry, true, &err) < 0)
		fail(&err);
	registry_close(r);
	printf("extras-store: store %s made; users add %s/public "
	       "(signed by %s, key in public/store.gpg)\n", c.dir, c.dir,
	       c.sign_with);
	store_config_destroy(&c);
	return 0;
}

static int
do_queue(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct store_config c;
	struct registry *r;
	int queued;

	if (args[0] != NULL)
		badusage("queue takes no argument");
	open_store(&c, &r);
	if (store_queue(&c, r, quiet, &queued, &err) < 0)
		fail(&err);
	if (!quiet)
		printf("extras-store: %d upload(s) queued\n", queued);
	registry_close(r);
	store_config_destroy(&c);
	return 0;
}

static int
work(struct store_config *c, struct registry *r)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct store_worker w = { 0 };
	char host[HOST_NAME_MAX + 1], *name = NULL;
	int published, refused;

	if (worker_name == NULL) {
		if (gethostname(host, sizeof(host)) < 0)
			strcpy(host, "localhost");
		host[sizeof(host) - 1] = '\0';
		if (asprintf(&name, "%s:%d", host, (int)getpid()) < 0)
			abort();
	}
	w.name = worker_name ? worker_name : name;
	w.lease = DEFAULT_LEASE;
	if (lease_arg != NULL) {
		char *end;
		long v = strtol(lease_arg, &end, 10);

		if (*lease_arg == '\0' || *end != '\0' || v < 0 ||
		    v > INT_MAX)
			badusage("--lease '%s' is not a number of seconds",
			         lease_arg);
		w.lease = v;
	}
	w.once = once;
	w.quiet = quiet;
	if (store_work(c, r, &w, &published, &refused, &err) < 0)
		fail(&err);
	if (!quiet)
		printf("extras-store: %d published, %d refused\n", published,
		       refused);
	free(name);
	return 0;
}

static int
do_work(const char *const *args)
{
	struct store_config c;
	struct registry *r;
	int ret;

	if (args[0] != NULL)
		badusage("work takes no argument");
	open_store(&c, &r);
	ret = work(&c, r);
	registry_close(r);
	store_config_destroy(&c);
	return ret;
}

static int
do_run(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct store_config c;
	struct registry *r;
	int queued, ret;

	if (args[0] != NULL)
		badusage("run takes no argument");
	open_store(&c, &r);
	if (store_queue(&c, r, quiet, &queued, &err) < 0)
		fail(&err);
	ret = work(&c, r);
	registry_close(r);
	store_config_destroy(&c);
	return ret;
}

static void
print_job(void *ctx, const struct registry_job *job)
{
	(void)ctx;
	printf("%lld\t%s\t%d\t%s\t%s\n", job->id, job->state, job->attempts,
	       job->worker ? job->worker : "-", job->upload);
}

static int
do_status(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct store_config c;
	struct registry *r;

	if (args[0] != NULL)
		badusage("status takes no argument");
	open_store(&c, &r);
	if (registry_job_list(r, print_job, NULL, &err) < 0)
		fail(&err);
	registry_close(r);
	store_config_destroy(&c);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const char *const *args);
	} commands[] = {
		{ "init", do_init },
		{ "queue", do_queue },
		{ "work", do_work },
		{ "run", do_run },
		{ "status", do_status },
	};
	const char *const *argp = (const char *const *)argv;
	size_t i;
	int status;

	(void)argc;
	dpkg_program_init("extras-store");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (argp[0] == NULL)
		badusage("expected a command: init, queue, work, run or "
		         "status");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argp[0], commands[i].name) == 0)
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		badusage("unknown command '%s'", argp[0]);
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	status = commands[i].run(argp);
	if (fflush(stdout) != 0)
		ohshite("cannot write to standard output");
	dpkg_program_done();
	return status;
}
