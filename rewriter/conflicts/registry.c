/*
 * registry.c: pick the backend for a DB argument; what all backends share.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg-db.h>
#include <dpkg/version.h>

#include "apparmor/profile.h"
#include "conflicts/registry.h"
#include "namespace/declaration.h"
#include "namespace/identity.h"
#include "namespace/namespace.h"

static bool
is_postgresql(const char *db)
{
	return strncmp(db, "postgresql://", 13) == 0 ||
	       strncmp(db, "postgres://", 11) == 0;
}

int
registry_open(struct registry **r, const char *db, bool create,
              struct dpkg_error *err)
{
	const struct registry_ops *ops = is_postgresql(db) ?
	                                 &registry_pg_ops : &registry_sqlite_ops;

	*r = NULL;
	if (ops->open(r, db, create, err) < 0)
		return -1;
	(*r)->ops = ops;
	return 0;
}

void
registry_close(struct registry *r)
{
	if (r != NULL)
		r->ops->close(r);
}

const char *
registry_check_label(const char *label)
{
	const char *p;

	if (label[0] == '\0')
		return "is empty";
	if (strlen(label) > REGISTRY_LABEL_MAX)
		return "is longer than 63 characters";
	if (label[0] == '.' || label[0] == '-')
		return "must start with a letter or a digit";
	for (p = label; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ||
		      *p == '_' || *p == '+'))
			return "may hold only letters, digits, '.', '-', '_' "
			       "and '+'";
	return NULL;
}

int
registry_index(struct registry *r, const char *label,
               const char *const *files, int nfiles,
               struct contents_stats *stats, struct dpkg_error *err)
{
	const char *reason = registry_check_label(label);

	if (reason != NULL)
		return dpkg_put_error(err, "archive label '%s' %s", label,
		                      reason);
	return r->ops->index(r, label, files, nfiles, stats, err);
}

int
registry_archive_files(struct registry *r, const char *const *paths,
                       size_t n, registry_archive_file_fn *found, void *ctx,
                       struct dpkg_error *err)
{
	return n ? r->ops->archive_files(r, paths, n, found, ctx, err) : 0;
}

int
registry_archive_package(struct registry *r, const char *name,
                         registry_archive_package_fn *found, void *ctx,
                         struct dpkg_error *err)
{
	return r->ops->archive_package(r, name, found, ctx, err);
}

int
registry_claimed_files(struct registry *r, const char *const *paths,
                       size_t n, registry_claimed_file_fn *found, void *ctx,
                       struct dpkg_error *err)
{
	return n ? r->ops->claimed_files(r, paths, n, found, ctx, err) : 0;
}

int
registry_claimed_package(struct registry *r, const char *name, char **app,
                         char **owner, struct dpkg_error *err)
{
	*app = *owner = NULL;
	return r->ops->claimed_package(r, name, app, owner, err);
}

int
registry_app_owner(struct registry *r, const char *app, char **owner,
                   struct dpkg_error *err)
{
	*owner = NULL;
	return r->ops->app_owner(r, app, owner, err);
}

int
registry_apps_under(struct registry *r, const char *app,
                    registry_app_fn *found, void *ctx,
                    struct dpkg_error *err)
{
	size_t n = strlen(app);
	char *low = malloc(n + 2), *high = malloc(n + 2);
	int ret;

	if (low == NULL || high == NULL)
		abort();
	/* '-' and '.' are 0x2d and 0x2e: every id under APP sorts between
	 * "APP-" and "APP/", and nothing else does. */
	memcpy(low, app, n);
	memcpy(high, app, n);
	strcpy(low + n, "-");
	strcpy(high + n, "/");
	ret = r->ops->apps_between(r, low, high, found, ctx, err);
	free(low);
	free(high);
	return ret;
}

struct shared {
	struct registry *r;
	const char *app, *owner;
	registry_refusal_fn *refused;
	void *ctx;
	struct dpkg_error *err;
	int n;
};

static void
shared_app(void *arg, const char *other, const char *owner)
{
	struct shared *s = arg;
	char reason[512];

	if (s->n < 0 || strcmp(other, s->app) == 0 ||
	    strcmp(owner, s->owner) == 0)
		return;
	snprintf(reason, sizeof(reason), "app id %s would share exported "
	         "names (extras-%s*) with app %s (owner %s)", s->app,
	         strlen(s->app) > strlen(other) ? s->app : other, other,
	         owner);
	s->refused(s->ctx, reason);
	s->n++;
}

/* A prefix of the app: its owner, when it has one. */
static void
shared_prefix(void *arg, const char *prefix)
{
	struct shared *s = arg;
	char *owner = NULL;

	if (s->n < 0 || strcmp(prefix, s->app) == 0)
		return;
	if (s->r->ops->app_owner(s->r, prefix, &owner, s->err) < 0)
		s->n = -1;
	else if (owner != NULL)
		shared_app(s, prefix, owner);
	free(owner);
}

int
registry_shared_names(struct registry *r, const char *app,
                      const char *owner, registry_refusal_fn *refused,
                      void *ctx, struct dpkg_error *err)
{
	struct shared s = { r, app, owner, refused, ctx, err, 0 };

	identity_space_owners(app, shared_prefix, &s);
	if (s.n >= 0 && registry_apps_under(r, app, shared_app, &s, err) < 0)
		s.n = -1;
	return s.n;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort the claim's names, so that rows are locked in one order. */
static void
sort_claim(struct registry_claim *claim)
{
	size_t i;

	/*
	 * Rows are locked in one order by every claimer, so two claims
	 * never wait on each other in a cycle.
	 */
	qsort(claim->packages, claim->npackages, sizeof(char *), cmp_str);
	for (i = 0; i < claim->npaths; i++) {
		size_t j = i;

		/* Sort paths and their packages together (insertion). */
		while (j > 0 && strcmp(claim->paths[j - 1],
		                       claim->paths[j]) > 0) {
			const char *t = claim->paths[j];

			claim->paths[j] = claim->paths[j - 1];
			claim->paths[j - 1] = t;
			t = claim->path_packages[j];
			claim->path_packages[j] = claim->path_packages[j - 1];
			claim->path_packages[j - 1] = t;
			j--;
		}
	}
}

int
registry_claim(struct registry *r, struct registry_claim *claim,
               registry_refusal_fn *refused, void *ctx,
               struct dpkg_error *err)
{
	sort_claim(claim);
	return r->ops->claim(r, claim, refused, ctx, err);
}

int
registry_accept(struct registry *r, struct registry_claim *claim,
                const char *version, const char *fingerprint,
                registry_refusal_fn *refused, void *ctx,
                struct dpkg_error *err)
{
	sort_claim(claim);
	return r->ops->accept(r, claim, version, fingerprint, refused, ctx,
	                      err);
}

int
registry_last_version(struct registry *r, const char *app, char **version,
                      struct dpkg_error *err)
{
	*version = NULL;
	return r->ops->last_version(r, app, version, err);
}

bool
registry_version_newer(const char *version, const char *last)
{
	struct dpkg_version a, b;
	struct dpkg_error err = DPKG_ERROR_INIT;

	if (parseversion(&a, version, &err) < 0) {
		dpkg_error_destroy(&err);
		return false;
	}
	/* A damaged record must not lock the app out. */
	if (parseversion(&b, last, &err) < 0) {
		dpkg_error_destroy(&err);
		return true;
	}
	return dpkg_version_compare(&a, &b) > 0;
}

const char *
registry_check_fingerprint(const char *fpr, char canon[65])
{
	size_t n = 0;

	for (; *fpr; fpr++) {
		if (*fpr == ' ')
			continue;
		if (!isxdigit((unsigned char)*fpr))
			return "holds a character other than a hex digit";
		if (n == 64)
			return "is longer than 64 hex digits";
		canon[n++] = toupper((unsigned char)*fpr);
	}
	canon[n] = '\0';
	if (n != 40 && n != 64)
		return "is not 40 or 64 hex digits long";
	return NULL;
}

int
registry_uploader_add(struct registry *r, const char *fpr, const char *name,
                      char **holder, struct dpkg_error *err)
{
	*holder = NULL;
	return r->ops->uploader_add(r, fpr, name, holder, err);
}

int
registry_uploader_remove(struct registry *r, const char *name,
                         const char *fpr, int *removed,
                         struct dpkg_error *err)
{
	*removed = 0;
	return r->ops->uploader_remove(r, name, fpr, removed, err);
}

int
registry_uploader(struct registry *r, const char *fpr, char **name,
                  struct dpkg_error *err)
{
	*name = NULL;
	return r->ops->uploader(r, fpr, name, err);
}

int
registry_uploader_list(struct registry *r, registry_uploader_fn *each,
                       void *ctx, struct dpkg_error *err)
{
	return r->ops->uploader_list(r, each, ctx, err);
}

/* 0 when APP and PRIVILEGE may name a grant, else -1 with ERR. */
static int
check_grant_names(const char *app, const char *privilege,
                  struct dpkg_error *err)
{
	const char *why = namespace_check_app(app);

	if (why != NULL)
		return dpkg_put_error(err, "app id '%s' %s", app, why);
	why = declaration_check_privilege_name(privilege);
	if (why != NULL)
		return dpkg_put_error(err, "privilege '%s' %s", privilege, why);
	return 0;
}

int
registry_grant_add(struct registry *r, const char *app,
                   const char *privilege, const char *owner,
                   struct dpkg_error *err)
{
	char *holder = NULL;
	int ret;

	/* The templates' knowledge, as extras-review --grant judges it. */
	if (check_grant_names(app, privilege, err) < 0 ||
	    profile_check_grant(NULL, privilege, err) < 0 ||
	    registry_app_owner(r, app, &holder, err) < 0)
		return -1;
	if (holder != NULL && owner != NULL && strcmp(owner, holder) != 0)
		ret = dpkg_put_error(err, "app id '%s' is held by %s, not %s: "
		                     "its grants are for its owner's uploads",
		                     app, holder, owner);
	else if (holder == NULL && (owner == NULL || owner[0] == '\0'))
		ret = dpkg_put_error(err, "app id '%s' is held by nobody yet: "
		                     "name the uploader whose uploads the grant "
		                     "is for (--owner)", app);
	else
		ret = r->ops->grant_add(r, app, privilege,
		                        holder != NULL ? holder : owner, err);
	free(holder);
	return ret;
}

int
registry_grant_remove(struct registry *r, const char *app,
                      const char *privilege, struct dpkg_error *err)
{
	if (check_grant_names(app, privilege, err) < 0)
		return -1;
	return r->ops->grant_remove(r, app, privilege, err);
}

int
registry_grants(struct registry *r, const char *app, registry_grant_fn *each,
                void *ctx, struct dpkg_error *err)
{
	return r->ops->grants(r, app, each, ctx, err);
}

int
registry_release(struct registry *r, const char *owner, const char *app,
                 struct dpkg_error *err)
{
	return r->ops->release(r, owner, app, err);
}

int
registry_list(struct registry *r, const char *owner, registry_list_fn *each,
              void *ctx, struct dpkg_error *err)
{
	return r->ops->list(r, owner, each, ctx, err);
}

void
registry_job_destroy(struct registry_job *job)
{
	free(job->dir);
	free(job->upload);
	free(job->state);
	free(job->worker);
	memset(job, 0, sizeof(*job));
}

bool
registry_job_done(const char *state)
{
	return strcmp(state, "published") == 0 ||
	       strcmp(state, "refused") == 0;
}

int
registry_job_add(struct registry *r, const char *dir, const char *upload,
                 long long *id, struct dpkg_error *err)
{
	*id = 0;
	return r->ops->job_add(r, dir, upload, id, err);
}

int
registry_job_take(struct registry *r, const char *worker, int lease,
                  struct registry_job *job, struct dpkg_error *err)
{
	memset(job, 0, sizeof(*job));
	return r->ops->job_take(r, worker, lease, job, err);
}

int
registry_job_update(struct registry *r, long long id, const char *worker,
                    const char *state, int lease, struct dpkg_error *err)
{
	return r->ops->job_update(r, id, worker, state, lease, err);
}

int
registry_job_list(struct registry *r, registry_job_fn *each, void *ctx,
                  struct dpkg_error *err)
{
	return r->ops->job_list(r, each, ctx, err);
}
