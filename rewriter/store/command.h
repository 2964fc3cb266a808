/*
 * command.h: the commands of extras-store, one function each: make a
 * store, queue its incoming uploads, work on the queued jobs, both, and
 * list the jobs.
 *
 * What a user reads goes to standard output as each step is taken.  Each
 * returns 0, STORE_FAILED with ERR for bad input or a failure, or
 * STORE_USAGE with ERR for a wrong call.
 */
#ifndef DH_EXTRAS_STORE_COMMAND_H
#define DH_EXTRAS_STORE_COMMAND_H

#include <dpkg/error.h>

#define STORE_FAILED (-1)
#define STORE_USAGE (-2)

struct store_command {
	/* The options, as given (NULL: not given). */
	const char *store_dir, *registry, *keyring, *sign_with, *codename;
	const char *architectures, *chroot, *chroot_suite, *worker, *lease;
	/* Flags, as libdpkg's option parser sets them. */
	int once, quiet;
};

typedef int store_command_fn(const struct store_command *c,
                             const char *const *args, struct dpkg_error *err);

store_command_fn store_init_command, store_queue_command,
	store_work_command, store_run_command, store_status_command;

#endif
