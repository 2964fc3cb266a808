/*
 * accept.c: the store's front door: who may upload what.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/string.h>

#include "base/error-at.h"
#include "base/strings.h"
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

/*
 * Add the names of LIST (a field of FILE at LINE: "a, b" for Binary, one
 * "NAME TYPE SECTION PRIORITY..." a line for Package-List) to ID, renamed.
 */
static int
add_names(struct identity *id, const char *file, const char *field, int line,
          const char *list, bool lines, struct dpkg_error *err)
{
	const char *p = list;

	while (*p) {
		size_t n;
		char *name, *renamed;
		const char *why;

		p += strspn(p, lines ? " \t\n" : ", \t\n");
		n = strcspn(p, lines ? " \t\n" : ", \t\n");
		if (n == 0)
			break;
		if (id->npackages == IDENTITY_PACKAGES_MAX)
			return put_error_at(err, file, line, "%s: more than "
			                    "%d packages", field,
			                    IDENTITY_PACKAGES_MAX);
		name = m_strndup(p, n);
		why = identity_check_package(name);
		if (why != NULL) {
			put_error_at(err, file, line, "%s: package name '%s': "
			             "%s", field, name, why);
			free(name);
			return -1;
		}
		renamed = identity_renamed(name);
		identity_add_package(id, renamed);
		free(renamed);
		free(name);
		p += n;
		if (lines)
			p += strcspn(p, "\n");
	}
	identity_sort(id);
	return 0;
}

/*
 * The binary packages a source-only upload names, as extras-convert will
 * rename them: Binary, and Package-List when there is one, which must
 * name the same packages (dpkg-source writes both from debian/control;
 * extras-convert holds debian/control to them).
 */
static int
read_dsc_packages(struct upload *u, struct accept_report *rep,
                  struct dpkg_error *err)
{
	const struct deb822_field *bin = deb822_find(u->dsc.stanza, "Binary");
	const struct deb822_field *pl = deb822_find(u->dsc.stanza,
	                                            "Package-List");
	struct identity listed;
	size_t i;
	int ret = 0;

	if (bin == NULL)
		return put_error_at(err, u->dsc.filename, 0, "has no Binary "
		                    "field: which packages it builds is "
		                    "decided here");
	if (add_names(&rep->identity, u->dsc.filename, "Binary", bin->line,
	              bin->value, false, err) < 0)
		return -1;
	if (rep->identity.npackages == 0)
		return put_error_at(err, u->dsc.filename, bin->line, "Binary "
		                    "names no package");
	if (pl == NULL)
		return 0;
	memset(&listed, 0, sizeof(listed));
	if (add_names(&listed, u->dsc.filename, "Package-List", pl->line,
	              pl->value, true, err) < 0) {
		identity_free(&listed);
		return -1;
	}
	for (i = 0; i < listed.npackages && ret == 0; i++)
		if (!identity_has_package(&rep->identity, listed.packages[i]))
			ret = put_error_at(err, u->dsc.filename, pl->line,
			                   "Package-List names %s, Binary does "
			                   "not", listed.packages[i]);
	for (i = 0; i < rep->identity.npackages && ret == 0; i++)
		if (!identity_has_package(&listed, rep->identity.packages[i]))
			ret = put_error_at(err, u->dsc.filename, bin->line,
			                   "Binary names %s, Package-List does "
			                   "not", rep->identity.packages[i]);
	identity_free(&listed);
	return ret;
}

/*
 * The binary packages a source-only .changes names (Binary), renamed; or,
 * without Binary (dpkg-genchanges leaves it out of a source-only
 * .changes), those of the .dsc it lists, whose checksums the signed
 * .changes holds and changes_read checked.
 */
static int
read_changes_packages(struct upload *u, struct accept_report *rep,
                      struct dpkg_error *err)
{
	const struct deb822_field *bin = deb822_find(u->ch.stanza, "Binary");
	size_t i;

	if (bin != NULL && bin->value[0] != '\0')
		return add_names(&rep->identity, u->ch.filename, "Binary",
		                 bin->line, bin->value, false, err);
	for (i = 0; i < u->ch.nfiles; i++)
		if (str_match_end(u->ch.files[i].name, ".dsc"))
			break;
	if (i == u->ch.nfiles)
		return put_error_at(err, u->ch.filename, 0, "lists no binary "
		                    "package and names none in Binary: which "
		                    "packages it builds is decided here");
	if (dsc_load(&u->dsc, u->ch.files[i].path, err) < 0)
		return -1;
	return read_dsc_packages(u, rep, err);
}

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
			identity_add_package(&rep->identity,
			                     u->debs[u->ndebs].package);
			u->ndebs++;
		}
		identity_sort(&rep->identity);
		if (u->ndebs > 0) {
			rep->identity.source = m_strdup(u->ch.source);
			return 0;
		}
		/* A source-only .changes (dput's _source.changes): the
		 * packages it will build, as for a .dsc. */
		rep->identity.source = identity_renamed(u->ch.source);
		return read_changes_packages(u, rep, err);
	}
	if (str_match_end(file, ".dsc")) {
		if (dsc_load_text(&u->dsc, file, text, len, err) < 0)
			return -1;
		rep->source = m_strdup(u->dsc.source);
		rep->version = m_strdup(u->dsc.version);
		rep->identity.source = identity_renamed(u->dsc.source);
		return read_dsc_packages(u, rep, err);
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
	if (u->dsc.filename != NULL)
		dsc_free(&u->dsc);
}

/* Add the reasons for the conflicts of REP from FROM on. */
static void
add_conflict_reasons(struct accept_report *rep, size_t from)
{
	char reason[1024];

	for (; from < rep->conflicts.n; from++) {
		conflicts_describe(&rep->conflicts.v[from], reason,
		                   sizeof(reason));
		add_reason(rep, reason);
	}
}

/*
 * The app id, and a source-only upload's package names: binary
 * packages are judged with their files by conflicts_check().
 */
static int
check_names(struct registry *r, struct upload *u, struct accept_report *rep,
            struct dpkg_error *err)
{
	const char *why = namespace_check_app(rep->app);
	size_t i, before = rep->conflicts.n;
	char reason[1024];

	if (u->ndebs == 0 && why != NULL) {
		snprintf(reason, sizeof(reason), "app id '%s' %s", rep->app,
		         why);
		add_reason(rep, reason);
		return 0;
	}
	if (conflicts_check_app(r, rep->source, rep->app, rep->uploader,
	                        &rep->conflicts, err) < 0)
		return -1;
	for (i = 0; u->ndebs == 0 && i < rep->identity.npackages; i++)
		if (conflicts_check_name(r, rep->identity.packages[i],
		                         rep->identity.packages[i], rep->app,
		                         true, &rep->conflicts, err) < 0)
			return -1;
	add_conflict_reasons(rep, before);
	return 0;
}

/* The owner, version and clashes, before the transaction checks again. */
static int
precheck(struct registry *r, struct upload *u, const char *root,
         struct accept_report *rep, struct dpkg_error *err)
{
	struct conflicts_options opt = { root, rep->uploader, true };
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
	if (check_names(r, u, rep, err) < 0)
		return -1;
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
			if (rep->conflicts.v[i].kind == CONFLICT_APP &&
			    rep->conflicts.v[i].archive == NULL)
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
	claim.packages = calloc(u->ndebs + rep->identity.npackages + 1,
	                        sizeof(char *));
	if (claim.packages == NULL)
		abort();
	/* A source-only upload claims the names it will build. */
	for (i = 0; u->ndebs == 0 && i < rep->identity.npackages; i++)
		claim.packages[claim.npackages++] = rep->identity.packages[i];
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
	size_t i;
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
	rep->identity.app = m_strdup(rep->app);
	rep->identity.version = m_strdup(rep->version);
	rep->identity.uploader = m_strdup(rep->uploader ? rep->uploader : "");
	for (i = 0; u.ndebs == 0 && i < rep->identity.npackages; i++) {
		rep->packages = m_realloc(rep->packages, (rep->npackages + 1) *
		                          sizeof(*rep->packages));
		rep->packages[rep->npackages++] =
			m_strdup(rep->identity.packages[i]);
	}
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
	free(rep->source);
	free(rep->version);
	free(rep->app);
	free(rep->uploader);
	strings_free(rep->reasons, rep->nreasons);
	strings_free(rep->packages, rep->npackages);
	conflict_list_destroy(&rep->conflicts);
	identity_free(&rep->identity);
}
