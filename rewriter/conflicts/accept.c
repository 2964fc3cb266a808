/*
 * accept.c: the store's front door: who may upload what.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/error-at.h"
#include "conflicts/accept.h"
#include "debian/changes.h"
#include "debian/debfile.h"
#include "debian/dsc.h"
#include "debian/gpgv.h"


static void
add_reason(void *ctx, const char *reason)
{
	struct accept_report *rep = ctx;

	rep->reasons = realloc(rep->reasons, (rep->nreasons + 1) *
	                       sizeof(*rep->reasons));
	if (rep->reasons == NULL)
		abort();
	rep->reasons[rep->nreasons++] = m_strdup(reason);
}

/* The upload's binary packages, read and checked against the .changes. */
struct upload {
	struct changes ch;
	struct dsc dsc;
	bool is_changes;
	struct debfile *debs;
	size_t ndebs;
};

static int
read_upload(struct upload *u, const char *file, const char *text, size_t len,
            struct accept_report *rep, struct dpkg_error *err)
{
	size_t i;

	if (str_match_end(file, ".changes")) {
		u->is_changes = true;
		if (changes_read_text(&u->ch, file, text, len, err) < 0)
			return -1;
		rep->source = m_strdup(u->ch.source);
		rep->version = m_strdup(u->ch.version);
		for (i = 0; i < u->ch.nfiles; i++) {
			if (!changes_file_is_deb(&u->ch.files[i]))
				continue;
			u->debs = realloc(u->debs, (u->ndebs + 1) *
			                  sizeof(*u->debs));
			if (u->debs == NULL)
				abort();
			if (debfile_read(&u->debs[u->ndebs],
			                 u->ch.files[i].path, err) < 0)
				return -1;
			u->ndebs++;
		}
		return 0;
	}
	if (str_match_end(file, ".dsc")) {
		if (dsc_load_text(&u->dsc, file, text, len, err) < 0)
			return -1;
		rep->source = m_strdup(u->dsc.source);
		rep->version = m_strdup(u->dsc.version);
		return 0;
	}
	return dpkg_put_error(err, "%s: not a .changes or .dsc", file);
}

static void
free_upload(struct upload *u)
{
	size_t i;

	for (i = 0; i < u->ndebs; i++)
		debfile_destroy(&u->debs[i]);
	free(u->debs);
	if (u->is_changes)
		changes_destroy(&u->ch);
	else if (u->dsc.filename != NULL)
		dsc_free(&u->dsc);
}

/* The owner, version and clashes, before the transaction checks again. */
static int
precheck(struct registry *r, struct upload *u, const char *root,
         struct accept_report *rep, struct dpkg_error *err)
{
	struct conflicts_options opt = { root, rep->uploader };
	char *owner = NULL, *last = NULL, reason[1024];
	size_t d, i;

	/* The version first: an upload accepted between the two reads
	 * then shows as its owner, the refusal that says who holds the
	 * name (as the transaction, which claims first, would say). */
	if (registry_last_version(r, rep->app, &last, err) < 0 ||
	    registry_app_owner(r, rep->app, &owner, err) < 0) {
		free(last);
		return -1;
	}
	if (owner != NULL && (rep->uploader == NULL ||
	                      strcmp(owner, rep->uploader) != 0)) {
		snprintf(reason, sizeof(reason), "app id %s is owned by %s",
		         rep->app, owner);
		add_reason(rep, reason);
	}
	free(owner);
	if (last != NULL && !registry_version_newer(rep->version, last)) {
		snprintf(reason, sizeof(reason), "version %s of %s is not "
		         "newer than %s, the last accepted", rep->version,
		         rep->app, last);
		add_reason(rep, reason);
	}
	free(last);
	for (d = 0; d < u->ndebs; d++) {
		const struct debfile *deb = &u->debs[d];
		struct extras_namespace ns;
		size_t before = rep->conflicts.n;

		rep->packages = realloc(rep->packages, (rep->npackages + 1) *
		                        sizeof(*rep->packages));
		if (rep->packages == NULL)
			abort();
		rep->packages[rep->npackages++] = m_strdup(deb->package);
		if (conflicts_namespace(deb, root, &ns, err) < 0)
			return -1;
		if (strcmp(ns.app, rep->app) != 0) {
			snprintf(reason, sizeof(reason), "%s belongs to app "
			         "%s, not %s", deb->package, ns.app, rep->app);
			add_reason(rep, reason);
			continue;
		}
		if (conflicts_check(r, deb, &opt, &rep->conflicts, err) < 0)
			return -1;
		for (i = before; i < rep->conflicts.n; i++) {
			/* The owner was judged above. */
			if (rep->conflicts.v[i].kind == CONFLICT_APP)
				continue;
			conflicts_describe(&rep->conflicts.v[i], reason,
			                   sizeof(reason));
			add_reason(rep, reason);
		}
	}
	return 0;
}

/* Record the claim and the version: the transaction judges again. */
static int
record(struct registry *r, struct upload *u, const char *root,
       struct accept_report *rep, struct dpkg_error *err)
{
	struct registry_claim claim;
	size_t d, i, n;
	int ret;

	memset(&claim, 0, sizeof(claim));
	claim.app = rep->app;
	claim.owner = rep->uploader;
	claim.keep_files = u->ndebs == 0;
	claim.packages = calloc(u->ndebs + 1, sizeof(char *));
	if (claim.packages == NULL)
		abort();
	for (d = 0; d < u->ndebs; d++) {
		struct extras_namespace ns;
		size_t *exports;

		if (conflicts_namespace(&u->debs[d], root, &ns, err) < 0) {
			free(claim.packages);
			return -1;
		}
		claim.packages[claim.npackages++] = u->debs[d].package;
		exports = conflicts_exports(&u->debs[d], &ns, &n);
		claim.paths = realloc(claim.paths, (claim.npaths + n + 1) *
		                      sizeof(char *));
		claim.path_packages = realloc(claim.path_packages,
		                              (claim.npaths + n + 1) *
		                              sizeof(char *));
		if (claim.paths == NULL || claim.path_packages == NULL)
			abort();
		for (i = 0; i < n; i++) {
			claim.paths[claim.npaths] =
				u->debs[d].members[exports[i]].path;
			claim.path_packages[claim.npaths++] =
				u->debs[d].package;
		}
		free(exports);
	}
	ret = registry_accept(r, &claim, rep->version, rep->fingerprint,
	                      add_reason, rep, err);
	free(claim.packages);
	free(claim.paths);
	free(claim.path_packages);
	return ret < 0 ? -1 : 0;
}

int
accept_upload(struct registry *r, const char *file, const char *keyring,
              const char *root, struct accept_report *rep,
              struct dpkg_error *err)
{
	struct gpgv_result sig;
	struct upload u;
	char reason[512];
	const char *app;
	int ret = -1;

	memset(rep, 0, sizeof(*rep));
	memset(&u, 0, sizeof(u));
	rep->file = file;
	if (!str_match_end(file, ".changes") && !str_match_end(file, ".dsc"))
		return dpkg_put_error(err, "%s: not a .changes or .dsc", file);
	if (gpgv_verify(file, keyring, &sig, err) < 0)
		return -1;
	snprintf(rep->fingerprint, sizeof(rep->fingerprint), "%s",
	         sig.fingerprint);
	if (sig.status != GPGV_GOOD) {
		add_reason(rep, sig.reason);
		gpgv_result_destroy(&sig);
		return 0;
	}
	rep->signature_ok = true;
	if (read_upload(&u, file, sig.text, sig.len, rep, err) < 0)
		goto out;
	app = namespace_app_of_package(rep->source);
	rep->app = m_strdup(app);
	if (registry_uploader(r, rep->fingerprint, &rep->uploader, err) < 0)
		goto out;
	if (rep->uploader == NULL) {
		snprintf(reason, sizeof(reason), "key %s is not registered "
		         "to an uploader", rep->fingerprint);
		add_reason(rep, reason);
	}
	if (precheck(r, &u, root, rep, err) < 0)
		goto out;
	if (rep->nreasons == 0 && record(r, &u, root, rep, err) < 0)
		goto out;
	rep->accepted = rep->nreasons == 0;
	ret = 0;
out:
	free_upload(&u);
	gpgv_result_destroy(&sig);
	return ret;
}

void
accept_report_destroy(struct accept_report *rep)
{
	size_t i;

	free(rep->source);
	free(rep->version);
	free(rep->app);
	free(rep->uploader);
	for (i = 0; i < rep->nreasons; i++)
		free(rep->reasons[i]);
	free(rep->reasons);
	for (i = 0; i < rep->npackages; i++)
		free(rep->packages[i]);
	free(rep->packages);
	conflict_list_destroy(&rep->conflicts);
}
