/*
 * registry.h: what the archives ship and what apps have claimed.
 *
 * Two kinds of facts, behind one interface:
 *
 * - archives: the Contents indices, one per label ("bookworm",
 *   "noble-universe"): which packages ship a path, which package names
 *   exist.  Re-indexing a label replaces it atomically.
 * - claims: an app id belongs to one owner, first come first served, with
 *   its binary package names and the paths it exports outside its
 *   namespace;
 * - uploaders: the name each signing key's fingerprint stands for, and for
 *   each app the last version accepted (registry_accept());
 * - grants: the reserved privileges the store's operator allows an app id
 *   (extras-review --grant), for the uploads of one uploader.
 *
 * Backends, chosen by the DB argument:
 *
 * - a directory (the default): claims in DB/claims.sqlite (SQLite, WAL,
 *   writers serialised by BEGIN IMMEDIATE), each archive in
 *   DB/contents/LABEL.idx (contents-index.h), replaced by rename(2);
 * - "postgresql://..." or "postgres://...": everything in PostgreSQL
 *   tables, through libpq, for several servers sharing one registry.
 *
 * Functions return 0 on success and -1 with ERR set; those that can refuse
 * return 1 when they do.
 */
#ifndef DH_EXTRAS_REGISTRY_H
#define DH_EXTRAS_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "conflicts/contents.h"

#define REGISTRY_LABEL_MAX 63

struct registry;

/* Open DB; CREATE makes a missing registry (index, claim). */
int registry_open(struct registry **r, const char *db, bool create,
                  struct dpkg_error *err);
void registry_close(struct registry *r);

/* NULL when LABEL may name an archive, else the reason. */
const char *registry_check_label(const char *label);

/* Replace archive LABEL by the NFILES Contents FILES. */
int registry_index(struct registry *r, const char *label,
                   const char *const *files, int nfiles,
                   struct contents_stats *stats, struct dpkg_error *err);

/*
 * For each of PATHS[i] an archive ships: FOUND(ctx, i, label, "pkg,pkg");
 * for each an archive has as a directory: FOUND(ctx, i, label, NULL).
 */
typedef void registry_archive_file_fn(void *ctx, size_t i, const char *label,
                                      const char *packages);
int registry_archive_files(struct registry *r, const char *const *paths,
                           size_t n, registry_archive_file_fn *found,
                           void *ctx, struct dpkg_error *err);

/* For each archive holding a package NAME: FOUND(ctx, label). */
typedef void registry_archive_package_fn(void *ctx, const char *label);
int registry_archive_package(struct registry *r, const char *name,
                             registry_archive_package_fn *found, void *ctx,
                             struct dpkg_error *err);

/* For each of PATHS[i] claimed: FOUND(ctx, i, app, owner, package). */
typedef void registry_claimed_file_fn(void *ctx, size_t i, const char *app,
                                      const char *owner,
                                      const char *package);
int registry_claimed_files(struct registry *r, const char *const *paths,
                           size_t n, registry_claimed_file_fn *found,
                           void *ctx, struct dpkg_error *err);

/*
 * The app and owner that claimed package NAME (malloc'd, NULL when
 * unclaimed).
 */
int registry_claimed_package(struct registry *r, const char *name,
                             char **app, char **owner,
                             struct dpkg_error *err);

/* The owner of APP (malloc'd), or NULL when unclaimed. */
int registry_app_owner(struct registry *r, const char *app, char **owner,
                       struct dpkg_error *err);

/*
 * For each claimed app whose id is APP followed by '-' or '.' and more
 * ("foo-bar", "foo.x" under "foo"): FOUND(ctx, app, owner), in order.
 */
typedef void registry_app_fn(void *ctx, const char *app, const char *owner);
int registry_apps_under(struct registry *r, const char *app,
                        registry_app_fn *found, void *ctx,
                        struct dpkg_error *err);

struct registry_claim {
	const char *app;
	const char *owner;
	/* Binary package names and exported paths; sorted by the call. */
	const char **packages;
	size_t npackages;
	const char **paths;	/* relative, as in Contents */
	const char **path_packages;	/* the package shipping each path */
	size_t npaths;
	/* A source-only upload: the app's packages and paths stay, and
	 * PACKAGES are claimed beside them. */
	bool keep_files;
};

/*
 * Record CLAIM in one transaction, replacing the app's earlier packages
 * and paths.  Returns 1 (nothing recorded, REFUSED called for each reason)
 * when the app id, a package or a path belongs to another app or owner.
 */
typedef void registry_refusal_fn(void *ctx, const char *reason);
int registry_claim(struct registry *r, struct registry_claim *claim,
                   registry_refusal_fn *refused, void *ctx,
                   struct dpkg_error *err);

/*
 * Inside a backend's claim transaction: call REFUSED for each app of
 * another owner with which APP would share export names (identity.h);
 * returns how many, or -1 with ERR set.
 */
int registry_shared_names(struct registry *r, const char *app,
                          const char *owner, registry_refusal_fn *refused,
                          void *ctx, struct dpkg_error *err);

/*
 * Drop OWNER's claim on APP, its last version accepted and its grants;
 * 1 when APP is not claimed by OWNER.
 */
int registry_release(struct registry *r, const char *owner, const char *app,
                     struct dpkg_error *err);

/*
 * Accept an upload of CLAIM->app at VERSION signed by FINGERPRINT (whose
 * uploader is CLAIM->owner): in one transaction, claim as registry_claim()
 * does and record VERSION, refused (1, nothing recorded, REFUSED called)
 * when the claim is, or when VERSION is not newer than the last accepted.
 */
int registry_accept(struct registry *r, struct registry_claim *claim,
                    const char *version, const char *fingerprint,
                    registry_refusal_fn *refused, void *ctx,
                    struct dpkg_error *err);

/* The last version accepted for APP (malloc'd), or NULL. */
int registry_last_version(struct registry *r, const char *app,
                          char **version, struct dpkg_error *err);

/* Whether VERSION is newer than LAST, as dpkg compares versions. */
bool registry_version_newer(const char *version, const char *last);

/*
 * NULL when FPR is a fingerprint (40 or 64 hex digits, any case; spaces
 * dropped into CANON, upper-case), else the reason.
 */
const char *registry_check_fingerprint(const char *fpr, char canon[65]);

/*
 * Register the key FPR (canonical) for uploader NAME; 1 (and the holder
 * in *HOLDER, malloc'd) when it stands for another name already.
 */
int registry_uploader_add(struct registry *r, const char *fpr,
                          const char *name, char **holder,
                          struct dpkg_error *err);

/*
 * Remove uploader NAME's key FPR (canonical), or all NAME's keys when FPR
 * is NULL, in one statement; *REMOVED says how many went.  Returns 1 when
 * NAME has no such key.  NAME's claims stay: its app ids, packages and
 * paths remain held, so nobody else takes them, and no upload is accepted
 * for them until a key is added for NAME again (or they are released).
 */
int registry_uploader_remove(struct registry *r, const char *name,
                             const char *fpr, int *removed,
                             struct dpkg_error *err);

/* The uploader key FPR stands for (malloc'd), or NULL. */
int registry_uploader(struct registry *r, const char *fpr, char **name,
                      struct dpkg_error *err);

/* Each uploader's key, ordered by name then fingerprint. */
typedef void registry_uploader_fn(void *ctx, const char *fpr,
                                  const char *name, const char *added);
int registry_uploader_list(struct registry *r, registry_uploader_fn *each,
                           void *ctx, struct dpkg_error *err);

/*
 * Grant APP the reserved privilege PRIVILEGE, for the uploads of one
 * uploader: refused (-1, ERR naming it) unless APP is a valid app id and
 * PRIVILEGE a privilege of class "reserved" in the templates.  A claimed
 * APP's grant is for its owner (OWNER, when not NULL, must be that
 * owner); an unclaimed one's for OWNER, which it needs: an operator may
 * grant before the first upload, and the grant must not go to whoever
 * claims the id first.  Granting again keeps the first grant's time and
 * takes the new owner.
 */
int registry_grant_add(struct registry *r, const char *app,
                       const char *privilege, const char *owner,
                       struct dpkg_error *err);

/*
 * Revoke APP's grant of PRIVILEGE (only its name's form is checked: a
 * grant the templates no longer know may still be revoked); 1 when APP
 * holds no such grant.
 */
int registry_grant_remove(struct registry *r, const char *app,
                          const char *privilege, struct dpkg_error *err);

/*
 * Each grant (of APP, or all when NULL), ordered by app, then privilege,
 * with the uploader whose uploads it is for ("" for a grant made before
 * grants had one, of an app nobody held then: for nobody).
 */
typedef void registry_grant_fn(void *ctx, const char *app,
                               const char *privilege, const char *owner,
                               const char *granted);
int registry_grants(struct registry *r, const char *app,
                    registry_grant_fn *each, void *ctx,
                    struct dpkg_error *err);

/* Each claim (of OWNER, or all when NULL), ordered by app. */
typedef void registry_list_fn(void *ctx, const char *app, const char *owner,
                              const char *claimed, const char *packages,
                              const char *paths);
int registry_list(struct registry *r, const char *owner,
                  registry_list_fn *each, void *ctx, struct dpkg_error *err);

/*
 * Jobs: the store's pipeline (extras-store) keeps one per upload, so that
 * workers on several hosts share the queue through the registry.  A job
 * moves through STATE ("queued", "accepted", ... "published" or
 * "refused"); a worker holds it under a lease (seconds, by the
 * database's clock), and a job whose lease expired is free again: a
 * worker that died loses no upload.
 */
struct registry_job {
	long long id;
	char *dir;	/* the job's files, relative to the store */
	char *upload;	/* the upload's file name (.changes or .dsc) */
	char *state;
	int attempts;
	char *worker;	/* NULL when nobody holds it */
	long long lease_left;	/* seconds, when held */
};

void registry_job_destroy(struct registry_job *job);

/* Queue the upload UPLOAD kept in DIR as a new job; its id in *ID. */
int registry_job_add(struct registry *r, const char *dir, const char *upload,
                     long long *id, struct dpkg_error *err);

/*
 * Take the oldest job not done ("published", "refused") that nobody holds
 * or whose lease expired, for WORKER, for LEASE seconds, counting one
 * attempt more; in one transaction (PostgreSQL: SELECT ... FOR UPDATE
 * SKIP LOCKED; SQLite: BEGIN IMMEDIATE), so two workers never take one
 * job.  Returns 1 when there is none.
 */
int registry_job_take(struct registry *r, const char *worker, int lease,
                      struct registry_job *job, struct dpkg_error *err);

/*
 * Move job ID, held by WORKER, to STATE, renewing the lease for LEASE
 * seconds; a job done is released.  Returns 1 (nothing changed) when
 * WORKER no longer holds it: its lease expired and another took it.
 */
int registry_job_update(struct registry *r, long long id, const char *worker,
                        const char *state, int lease,
                        struct dpkg_error *err);

/* Each job, by id. */
typedef void registry_job_fn(void *ctx, const struct registry_job *job);
int registry_job_list(struct registry *r, registry_job_fn *each, void *ctx,
                      struct dpkg_error *err);

/* Whether STATE ends a job. */
bool registry_job_done(const char *state);

/* What each backend provides; registry.c picks one. */
struct registry_ops {
	const char *name;
	int (*open)(struct registry **r, const char *db, bool create,
	            struct dpkg_error *err);
	void (*close)(struct registry *r);
	int (*index)(struct registry *r, const char *label,
	             const char *const *files, int nfiles,
	             struct contents_stats *stats, struct dpkg_error *err);
	int (*archive_files)(struct registry *r, const char *const *paths,
	                     size_t n, registry_archive_file_fn *found,
	                     void *ctx, struct dpkg_error *err);
	int (*archive_package)(struct registry *r, const char *name,
	                       registry_archive_package_fn *found, void *ctx,
	                       struct dpkg_error *err);
	int (*claimed_files)(struct registry *r, const char *const *paths,
	                     size_t n, registry_claimed_file_fn *found,
	                     void *ctx, struct dpkg_error *err);
	int (*claimed_package)(struct registry *r, const char *name,
	                       char **app, char **owner,
	                       struct dpkg_error *err);
	int (*app_owner)(struct registry *r, const char *app, char **owner,
	                 struct dpkg_error *err);
	/* Apps in [LOW, HIGH), compared bytewise. */
	int (*apps_between)(struct registry *r, const char *low,
	                    const char *high, registry_app_fn *found,
	                    void *ctx, struct dpkg_error *err);
	int (*claim)(struct registry *r, const struct registry_claim *claim,
	             registry_refusal_fn *refused, void *ctx,
	             struct dpkg_error *err);
	int (*release)(struct registry *r, const char *owner, const char *app,
	               struct dpkg_error *err);
	int (*list)(struct registry *r, const char *owner,
	            registry_list_fn *each, void *ctx,
	            struct dpkg_error *err);
	int (*accept)(struct registry *r, const struct registry_claim *claim,
	              const char *version, const char *fingerprint,
	              registry_refusal_fn *refused, void *ctx,
	              struct dpkg_error *err);
	int (*last_version)(struct registry *r, const char *app,
	                    char **version, struct dpkg_error *err);
	int (*uploader_add)(struct registry *r, const char *fpr,
	                    const char *name, char **holder,
	                    struct dpkg_error *err);
	int (*uploader)(struct registry *r, const char *fpr, char **name,
	                struct dpkg_error *err);
	int (*uploader_remove)(struct registry *r, const char *name,
	                       const char *fpr, int *removed,
	                       struct dpkg_error *err);
	int (*uploader_list)(struct registry *r, registry_uploader_fn *each,
	                     void *ctx, struct dpkg_error *err);
	int (*grant_add)(struct registry *r, const char *app,
	                 const char *privilege, const char *owner,
	                 struct dpkg_error *err);
	int (*grant_remove)(struct registry *r, const char *app,
	                    const char *privilege, struct dpkg_error *err);
	int (*grants)(struct registry *r, const char *app,
	              registry_grant_fn *each, void *ctx,
	              struct dpkg_error *err);
	int (*job_add)(struct registry *r, const char *dir,
	               const char *upload, long long *id,
	               struct dpkg_error *err);
	int (*job_take)(struct registry *r, const char *worker, int lease,
	                struct registry_job *job, struct dpkg_error *err);
	int (*job_update)(struct registry *r, long long id,
	                  const char *worker, const char *state, int lease,
	                  struct dpkg_error *err);
	int (*job_list)(struct registry *r, registry_job_fn *each, void *ctx,
	                struct dpkg_error *err);
};

/* Every backend's struct registry starts with this. */
struct registry {
	const struct registry_ops *ops;
};

extern const struct registry_ops registry_sqlite_ops;
extern const struct registry_ops registry_pg_ops;

#endif
