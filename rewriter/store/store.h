/*
 * store.h: the store's pipeline, from a signed upload to a published
 * package.
 *
 * A store is a directory:
 *
 *	store.conf	the operator's settings (one deb822 stanza, below)
 *	incoming/	signed uploads (.changes or .dsc, with their files)
 *	jobs/ID/	each upload's files and every step's output
 *	reports/	one report per job, ID.json and ID.html
 *	reprepro/conf/	the apt repository's settings (reprepro)
 *	states/N/	the repository's states: db/ (reprepro's) and out/
 *	public		-> states/N/out, the repository users read
 *
 * store.conf:
 *
 *	Registry: /srv/registry (or postgresql://...)
 *	Keyring: /srv/store/uploaders.gpg
 *	Sign-With: <fingerprint of the store's signing key>
 *	Codename: extras
 *	Architectures: amd64
 *	Chroot: <sbuild chroot>          (optional: builds with sbuild)
 *	Chroot-Suite: bookworm            (with Chroot)
 *
 * Each upload is a job in the registry (registry.h).  A worker takes a job
 * and runs its steps in order, each one of the existing tools, with the
 * identity extras-conflicts accept decided handed to every later one:
 *
 *	queued -accept-> accepted -convert-> converted -build-> built
 *	-review-> reviewed -claim-> claimed -publish-> published
 *
 * or "refused" at the step that refuses it.  The state is recorded after
 * each step: a worker that dies leaves its job to be taken again once its
 * lease expires, from the step it was in.  Each step starts from its
 * inputs and writes a directory of its own, so running it again is safe.
 */
#ifndef DH_EXTRAS_STORE_H
#define DH_EXTRAS_STORE_H

#include <stdbool.h>

#include <dpkg/error.h>

#include "conflicts/registry.h"

struct store_config {
	char *dir;
	char *registry;
	char *keyring;
	char *sign_with;
	char *codename;
	char *architectures;
	char *chroot;		/* NULL: dpkg-buildpackage in a scratch copy */
	char *chroot_suite;
};

/* Read DIR/store.conf (hostile input all the same). */
int store_config_read(struct store_config *c, const char *dir,
                      struct dpkg_error *err);
void store_config_destroy(struct store_config *c);

/* The architectures a store publishes by default: this host's. */
const char *store_default_architecture(void);

/*
 * Make a store in C->dir: store.conf, the directories, the repository's
 * configuration, and its first (empty) state published, signed, with the
 * store's public key beside it as store.gpg.
 */
int store_init(const struct store_config *c, struct dpkg_error *err);

/* Queue each upload of DIR/incoming as a job, with a line each unless
 * QUIET; *QUEUED says how many. */
int store_queue(const struct store_config *c, struct registry *r,
                bool quiet, int *queued, struct dpkg_error *err);

struct store_worker {
	const char *name;	/* "host:pid" */
	int lease;		/* seconds a step may take */
	bool once;		/* one job, then stop */
	bool quiet;		/* no progress lines */
};

/*
 * Take jobs and run them until none is free.  *PUBLISHED and *REFUSED
 * count the jobs that ended so.  Returns -1 with ERR set when a step could
 * not run (the job waits for its lease to expire and another attempt).
 */
int store_work(const struct store_config *c, struct registry *r,
               const struct store_worker *w, int *published, int *refused,
               struct dpkg_error *err);

#endif
