/*
 * command.c: the commands of extras-conflicts (see command.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/varbuf.h>

#include "base/json.h"
#include "base/strings.h"
#include "conflicts/accept.h"
#include "conflicts/command.h"
#include "conflicts/conflicts.h"
#include "conflicts/registry.h"
#include "debian/changes.h"
#include "debian/debfile.h"
#include "namespace/identity.h"
#include "namespace/namespace.h"

/* A wrong call: ERR says what, for the command's usage line. */
static int
usage_error(struct dpkg_error *err, const char *fmt, ...)
	DPKG_ATTR_PRINTF(2);

static int
usage_error(struct dpkg_error *err, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	dpkg_put_error(err, "%s", buf);
	return CONFLICTS_USAGE;
}

static int
open_registry(const struct conflicts_command *c, bool create,
              struct registry **r, struct dpkg_error *err)
{
	if (c->db == NULL)
		return usage_error(err, "-d DB is required");
	if (registry_open(r, c->db, create, err) < 0)
		return CONFLICTS_FAILED;
	return 0;
}

/* The label from a file name: "dir/Contents-amd64.gz" → "Contents-amd64". */
static char *
default_label(const char *file)
{
	static const char *const exts[] = {
		".gz", ".xz", ".lz4", ".zst", ".bz2", ".lzma", NULL,
	};
	const char *base = strrchr(file, '/');
	char *label = m_strdup(base ? base + 1 : file);
	size_t len = strlen(label);
	int i;

	for (i = 0; exts[i]; i++) {
		size_t n = strlen(exts[i]);

		if (len > n && strcmp(label + len - n, exts[i]) == 0) {
			label[len - n] = '\0';
			break;
		}
	}
	return label;
}

int
conflicts_index_command(struct conflicts_command *c, const char *const *files,
                        struct dpkg_error *err)
{
	struct contents_stats stats = { 0 };
	struct registry *r;
	char *label;
	int nfiles = 0, rc;

	while (files[nfiles])
		nfiles++;
	if (nfiles == 0)
		return usage_error(err, "index needs at least one Contents "
		                   "file");
	label = c->archive ? m_strdup(c->archive) : default_label(files[0]);
	if (registry_check_label(label) != NULL) {
		dpkg_put_error(err, "archive label '%s' %s (use --archive)",
		               label, registry_check_label(label));
		free(label);
		return CONFLICTS_FAILED;
	}
	rc = open_registry(c, true, &r, err);
	if (rc < 0) {
		free(label);
		return rc;
	}
	if (registry_index(r, label, files, nfiles, &stats, err) < 0) {
		registry_close(r);
		free(label);
		return CONFLICTS_FAILED;
	}
	printf("%s: %llu paths indexed from %d file(s), %llu line(s) "
	       "ignored\n", label, (unsigned long long)stats.entries, nfiles,
	       (unsigned long long)stats.bad_lines);
	if (c->json) {
		struct json_object *j = json_new_object();

		json_add_text(j, "archive", label);
		json_add(j, "files", json_text_array((char *const *)files,
		                                     nfiles));
		json_add_int(j, "lines", stats.lines);
		json_add_int(j, "paths", stats.entries);
		json_add_int(j, "directories", stats.directories);
		json_add_int(j, "ignored", stats.bad_lines);
		if (stats.index_bytes)
			json_add_int(j, "bytes", stats.index_bytes);
		else
			json_add(j, "bytes", NULL);
		json_write(c->json, j);
	}
	registry_close(r);
	free(label);
	return 0;
}

/* The binary packages of FILES: each .deb, and those a .changes lists. */
struct debs {
	struct debfile *v;
	size_t n;
};

static void
free_debs(struct debs *debs)
{
	size_t i;

	for (i = 0; i < debs->n; i++)
		debfile_destroy(&debs->v[i]);
	free(debs->v);
	debs->v = NULL;
	debs->n = 0;
}

static int
add_deb(struct debs *debs, const char *file, struct dpkg_error *err)
{
	debs->v = m_realloc(debs->v, (debs->n + 1) * sizeof(*debs->v));
	if (debfile_read(&debs->v[debs->n], file, err) < 0)
		return -1;
	debs->n++;
	return 0;
}

static int
read_changes(struct debs *debs, const char *file, struct dpkg_error *err)
{
	struct changes ch;
	size_t before = debs->n, i;
	int rc = 0;

	if (changes_read(&ch, file, err) < 0)
		return -1;
	for (i = 0; i < ch.nfiles && rc == 0; i++)
		if (changes_file_is_deb(&ch.files[i]))
			rc = add_deb(debs, ch.files[i].path, err);
	if (rc == 0 && debs->n == before) {
		dpkg_put_error(err, "%s: lists no binary package", file);
		rc = -1;
	}
	changes_destroy(&ch);
	return rc;
}

static int
read_inputs(struct debs *debs, const char *const *files,
            struct dpkg_error *err)
{
	if (files[0] == NULL)
		return usage_error(err, "expected FILE.deb or FILE.changes "
		                   "arguments");
	for (; *files; files++) {
		size_t len = strlen(*files);
		int rc;

		if (len > 8 && strcmp(*files + len - 8, ".changes") == 0)
			rc = read_changes(debs, *files, err);
		else
			rc = add_deb(debs, *files, err);
		if (rc < 0) {
			free_debs(debs);
			return CONFLICTS_FAILED;
		}
	}
	return 0;
}

/* One conflict of FILE as a JSON object. */
static struct json_object *
json_conflict(const char *file, const struct conflict *c)
{
	struct json_object *o = json_new_object();
	char line[8192];

	conflicts_describe(c, line, sizeof(line));
	json_add_text(o, "file", file);
	json_add_text(o, "package", c->package);
	json_add_text(o, "kind", conflicts_kind_name(c->kind));
	json_add_text(o, "name", c->name);
	json_add_text(o, "archive", c->archive);
	json_add_text(o, "other", c->other);
	json_add_text(o, "owner", c->owner);
	if (c->path != NULL)
		json_add_text(o, "path", c->path);
	json_add_text(o, "message", line);
	return o;
}

static int
write_check_json(const struct conflicts_command *c, const struct debs *debs,
                 const struct conflict_list *lists, struct dpkg_error *err)
{
	struct json_object *j = json_new_object();
	struct json_object *packages = json_new_array();
	struct json_object *conflicts = json_new_array();
	size_t d, i;

	json_add(j, "packages", packages);
	json_add(j, "conflicts", conflicts);
	for (d = 0; d < debs->n; d++) {
		struct json_object *o;
		struct extras_namespace ns;

		if (conflicts_namespace(&debs->v[d], c->root, &ns, err) < 0) {
			json_object_put(j);
			return -1;
		}
		o = json_new_object();
		json_add_text(o, "file", debs->v[d].filename);
		json_add_text(o, "package", debs->v[d].package);
		json_add_text(o, "version", debs->v[d].version);
		json_add_text(o, "app", ns.app);
		json_add_bool(o, "extras", conflicts_is_extras(&debs->v[d]));
		json_add_text(o, "root", ns.root[0] ? ns.root : NULL);
		json_add_int(o, "conflicts", lists[d].n);
		json_object_array_add(packages, o);
		for (i = 0; i < lists[d].n; i++)
			json_object_array_add(conflicts,
			                      json_conflict(debs->v[d].filename,
			                                    &lists[d].v[i]));
	}
	json_write(c->json, j);
	return 0;
}

int
conflicts_check_command(struct conflicts_command *c, const char *const *files,
                        struct dpkg_error *err)
{
	struct conflicts_options opt = { c->root, c->owner, false };
	struct debs debs = { NULL, 0 };
	struct conflict_list *lists;
	struct registry *r;
	size_t d, i, total = 0;
	int rc;

	rc = read_inputs(&debs, files, err);
	if (rc == 0)
		rc = open_registry(c, false, &r, err);
	if (rc < 0) {
		free_debs(&debs);
		return rc;
	}
	lists = m_calloc(debs.n ? debs.n : 1, sizeof(*lists));
	for (d = 0; d < debs.n && rc == 0; d++) {
		if (conflicts_check(r, &debs.v[d], &opt, &lists[d], err) < 0) {
			rc = CONFLICTS_FAILED;
			break;
		}
		for (i = 0; i < lists[d].n; i++) {
			char line[8192];

			conflicts_describe(&lists[d].v[i], line, sizeof(line));
			printf("%s: %s\n", debs.v[d].filename, line);
		}
		total += lists[d].n;
	}
	if (rc == 0 && c->json && write_check_json(c, &debs, lists, err) < 0)
		rc = CONFLICTS_FAILED;
	for (d = 0; d < debs.n; d++)
		conflict_list_destroy(&lists[d]);
	free(lists);
	registry_close(r);
	free_debs(&debs);
	return rc < 0 ? rc : total ? 1 : 0;
}

/* A claim being made, and the reasons it is refused. */
struct claiming {
	struct registry_claim claim;
	struct debs debs;
	struct identity identity;
	char **refusals;
	size_t nrefusals;
};

static void
print_refusal(void *ctx, const char *reason)
{
	struct claiming *cl = ctx;

	fprintf(stderr, "%s: %s\n", cl->claim.app, reason);
	cl->refusals = m_realloc(cl->refusals, (cl->nrefusals + 1) *
	                         sizeof(*cl->refusals));
	cl->refusals[cl->nrefusals++] = m_strdup(reason);
}

/*
 * With --identity: the app, the owner and every package are the store's
 * decision; a package that disagrees is refused before anything is
 * recorded.  0, 1 when refused, or an error.
 */
static int
check_identity(struct conflicts_command *c, struct claiming *cl,
               const struct extras_namespace *ns, struct dpkg_error *err)
{
	const struct identity *id = &cl->identity;
	size_t d;
	int bad = 0;

	if (c->identity == NULL)
		return 0;
	if (identity_read(&cl->identity, c->identity, err) < 0)
		return CONFLICTS_FAILED;
	if (c->owner == NULL)
		c->owner = id->uploader;
	else if (strcmp(c->owner, id->uploader) != 0)
		return usage_error(err, "--owner %s is not %s, the uploader "
		                   "of %s", c->owner, id->uploader,
		                   c->identity);
	if (strcmp(ns->app, id->app) != 0) {
		fprintf(stderr, "%s: app id %s is not %s, the app of %s\n",
		        ns->app, ns->app, id->app, c->identity);
		bad++;
	}
	for (d = 0; d < cl->debs.n; d++) {
		const struct debfile *deb = &cl->debs.v[d];

		if (!identity_has_package(id, deb->package)) {
			fprintf(stderr, "%s: package %s is not one of app %s's "
			        "packages in %s\n", ns->app, deb->package,
			        id->app, c->identity);
			bad++;
		}
		if (strcmp(deb->source, id->source) != 0) {
			fprintf(stderr, "%s: %s is built from source %s, not "
			        "%s\n", ns->app, deb->filename, deb->source,
			        id->source);
			bad++;
		}
	}
	return bad ? 1 : 0;
}

/*
 * Everything extras-conflicts check finds, refused before the registry's
 * transaction, which sees only claims: a file an archive ships (a
 * store's claim comes after its build, whose files its source-only
 * upload did not show), an exported file in another owner's export
 * names, a declared name held elsewhere.  What another app claimed is
 * said here too, and judged again by the transaction.
 */
static int
check_before_claim(const struct conflicts_command *c, struct registry *r,
                   struct claiming *cl, struct dpkg_error *err)
{
	struct conflicts_options opt = { c->root, c->owner, false };
	struct conflict_list list = { NULL, 0 };
	size_t d, i;
	int rc = 0;

	for (d = 0; d < cl->debs.n && rc == 0; d++)
		if (conflicts_check(r, &cl->debs.v[d], &opt, &list, err) < 0)
			rc = -1;
	for (i = 0; i < list.n && rc == 0; i++) {
		char line[8192];

		conflicts_describe(&list.v[i], line, sizeof(line));
		print_refusal(cl, line);
	}
	conflict_list_destroy(&list);
	return rc;
}

/* The claim of CL's packages: their names and exported files. */
static int
gather_claim(const struct conflicts_command *c, struct claiming *cl,
             const struct extras_namespace *ns, struct dpkg_error *err)
{
	struct registry_claim *claim = &cl->claim;
	size_t d, i, n;

	claim->packages = m_malloc(cl->debs.n * sizeof(char *));
	for (d = 0; d < cl->debs.n; d++) {
		const struct debfile *deb = &cl->debs.v[d];
		struct extras_namespace dns;
		size_t *exports;

		if (conflicts_namespace(deb, c->root, &dns, err) < 0)
			return -1;
		if (strcmp(dns.app, ns->app) != 0) {
			dpkg_put_error(err, "%s: app id '%s' differs from "
			               "%s's '%s'", deb->filename, dns.app,
			               cl->debs.v[0].filename, ns->app);
			return -1;
		}
		claim->packages[claim->npackages++] = deb->package;
		exports = conflicts_exports(deb, &dns, &n);
		claim->paths = m_realloc(claim->paths, (claim->npaths + n) *
		                         sizeof(char *));
		claim->path_packages = m_realloc(claim->path_packages,
		                                 (claim->npaths + n) *
		                                 sizeof(char *));
		for (i = 0; i < n; i++) {
			claim->paths[claim->npaths] =
				deb->members[exports[i]].path;
			claim->path_packages[claim->npaths++] = deb->package;
		}
		free(exports);
	}
	return 0;
}

int
conflicts_claim_command(struct conflicts_command *c, const char *const *files,
                        struct dpkg_error *err)
{
	struct claiming cl;
	struct extras_namespace ns;
	struct registry *r = NULL;
	int ret;

	memset(&cl, 0, sizeof(cl));
	if ((c->owner == NULL || c->owner[0] == '\0') && c->identity == NULL)
		return usage_error(err, "claim needs --owner or --identity");
	ret = read_inputs(&cl.debs, files, err);
	if (ret < 0)
		return ret;
	if (conflicts_namespace(&cl.debs.v[0], c->root, &ns, err) < 0) {
		ret = CONFLICTS_FAILED;
		goto out;
	}
	ret = check_identity(c, &cl, &ns, err);
	if (ret != 0)
		goto out;
	cl.claim.app = ns.app;
	cl.claim.owner = c->owner;
	if (gather_claim(c, &cl, &ns, err) < 0) {
		ret = CONFLICTS_FAILED;
		goto out;
	}
	ret = open_registry(c, true, &r, err);
	if (ret < 0)
		goto out;
	if (check_before_claim(c, r, &cl, err) < 0) {
		ret = CONFLICTS_FAILED;
		goto out;
	}
	ret = cl.nrefusals ? 1 : registry_claim(r, &cl.claim, print_refusal,
	                                        &cl, err);
	if (ret < 0) {
		ret = CONFLICTS_FAILED;
		goto out;
	}
	if (ret == 0)
		printf("%s: claimed by %s (%zu package(s), %zu exported "
		       "path(s))\n", ns.app, c->owner, cl.claim.npackages,
		       cl.claim.npaths);
	if (c->json) {
		struct json_object *j = json_new_object();

		json_add_text(j, "app", ns.app);
		json_add_text(j, "owner", c->owner);
		json_add_bool(j, "claimed", ret == 0);
		json_add(j, "packages",
		         json_text_array((char *const *)cl.claim.packages,
		                         cl.claim.npackages));
		json_add_int(j, "files", cl.claim.npaths);
		json_add(j, "reasons", json_text_array(cl.refusals,
		                                       cl.nrefusals));
		json_write(c->json, j);
	}
out:
	strings_free(cl.refusals, cl.nrefusals);
	if (r != NULL)
		registry_close(r);
	free(cl.claim.packages);
	free(cl.claim.paths);
	free(cl.claim.path_packages);
	free_debs(&cl.debs);
	/* The owner may be the identity's: the caller is done with it. */
	if (c->owner == cl.identity.uploader)
		c->owner = NULL;
	identity_free(&cl.identity);
	return ret;
}

int
conflicts_release_command(struct conflicts_command *c,
                          const char *const *apps, struct dpkg_error *err)
{
	struct registry *r;
	struct json_object *j;
	int status = 0, rc;

	if (c->owner == NULL || c->owner[0] == '\0')
		return usage_error(err, "release needs --owner");
	if (apps[0] == NULL)
		return usage_error(err, "release needs at least one APP");
	rc = open_registry(c, false, &r, err);
	if (rc < 0)
		return rc;
	j = json_new_array();
	for (; *apps; apps++) {
		int ret = registry_release(r, c->owner, *apps, err);
		struct json_object *o;

		if (ret < 0) {
			json_object_put(j);
			registry_close(r);
			return CONFLICTS_FAILED;
		}
		if (ret > 0) {
			fprintf(stderr, "%s: not claimed by %s\n", *apps,
			        c->owner);
			status = 1;
		} else {
			printf("%s: released\n", *apps);
		}
		o = json_new_object();
		json_add_text(o, "app", *apps);
		json_add_bool(o, "released", ret == 0);
		json_object_array_add(j, o);
	}
	if (c->json)
		json_write(c->json, j);
	else
		json_object_put(j);
	registry_close(r);
	return status;
}

/* The lines of TEXT as a JSON array, each after PREFIX. */
static struct json_object *
json_lines(const char *prefix, const char *text)
{
	struct json_object *a = json_new_array();
	const char *p;

	for (p = text; *p; ) {
		size_t n = strcspn(p, "\n");
		char *item = m_malloc(strlen(prefix) + n + 1);

		sprintf(item, "%s%.*s", prefix, (int)n, p);
		json_object_array_add(a, json_text(item));
		free(item);
		p += n + (p[n] == '\n');
	}
	return a;
}

static void
print_claim(void *ctx, const char *app, const char *claim_owner,
            const char *claimed, const char *packages, const char *paths)
{
	struct json_object *o = json_new_object();
	const char *p;

	json_add_text(o, "app", app);
	json_add_text(o, "owner", claim_owner);
	json_add_text(o, "claimed", claimed);
	json_add(o, "packages", json_lines("", packages));
	json_add(o, "files", json_lines("/", paths));
	json_object_array_add(ctx, o);
	printf("%s\t%s\t%s\n", app, claim_owner, claimed);
	for (p = packages; *p; ) {
		size_t n = strcspn(p, "\n");

		printf("\tpackage\t%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	for (p = paths; *p; ) {
		size_t n = strcspn(p, "\n");

		printf("\tfile\t/%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/*
 * A listing of the registry (the claims, the uploaders, the grants of
 * APP or all), made by LIST: a line on standard output and an object of
 * the report's array for each.
 */
static int
listing(const struct conflicts_command *c, const char *app,
        int (*list)(struct registry *r, const struct conflicts_command *c,
                    const char *app, struct json_object *a,
                    struct dpkg_error *err),
        struct dpkg_error *err)
{
	struct registry *r;
	struct json_object *a;
	int rc;

	rc = open_registry(c, false, &r, err);
	if (rc < 0)
		return rc;
	a = json_new_array();
	rc = list(r, c, app, a, err);
	if (rc == 0 && c->json)
		json_write(c->json, a);
	else
		json_object_put(a);
	registry_close(r);
	return rc < 0 ? CONFLICTS_FAILED : 0;
}

static int
list_claims(struct registry *r, const struct conflicts_command *c,
            const char *app, struct json_object *a, struct dpkg_error *err)
{
	(void)app;
	return registry_list(r, c->owner, print_claim, a, err);
}

int
conflicts_list_command(struct conflicts_command *c, const char *const *args,
                       struct dpkg_error *err)
{
	if (args[0] != NULL)
		return usage_error(err, "list takes no argument");
	return listing(c, NULL, list_claims, err);
}

static void
write_accept_json(FILE *fp, const struct accept_report *rep)
{
	struct json_object *j = json_new_object(), *id = NULL, *a;
	size_t i;

	json_add_text(j, "file", rep->file);
	json_add_bool(j, "accepted", rep->accepted);
	json_add_text(j, "source", rep->source);
	json_add_text(j, "version", rep->version);
	json_add_text(j, "app", rep->app);
	json_add_bool(j, "signature", rep->signature_ok);
	json_add_text(j, "fingerprint", rep->fingerprint[0] ?
	              rep->fingerprint : NULL);
	json_add_text(j, "uploader", rep->uploader);
	json_add(j, "packages", json_text_array(rep->packages,
	                                        rep->npackages));
	json_add(j, "reasons", json_text_array(rep->reasons, rep->nreasons));
	/* What the later steps are handed (--identity), once accepted. */
	if (rep->accepted) {
		id = json_new_object();
		json_add_text(id, "app", rep->identity.app);
		json_add_text(id, "source", rep->identity.source);
		json_add_text(id, "version", rep->identity.version);
		json_add_text(id, "uploader", rep->identity.uploader);
		json_add(id, "packages",
		         json_text_array(rep->identity.packages,
		                         rep->identity.npackages));
	}
	json_add(j, "identity", id);
	a = json_new_array();
	for (i = 0; i < rep->conflicts.n; i++)
		json_object_array_add(a, json_conflict(rep->file,
		                                       &rep->conflicts.v[i]));
	json_add(j, "conflicts", a);
	json_write(fp, j);
}

int
conflicts_accept_command(struct conflicts_command *c, const char *const *args,
                         struct dpkg_error *err)
{
	struct accept_report report;
	struct registry *r;
	size_t i;
	int rc;

	if (c->keyring == NULL)
		return usage_error(err, "accept needs --keyring");
	if (args[0] == NULL || args[1] != NULL)
		return usage_error(err, "accept takes one UPLOAD.changes or "
		                   "UPLOAD.dsc");
	rc = open_registry(c, true, &r, err);
	if (rc < 0)
		return rc;
	memset(&report, 0, sizeof(report));
	if (accept_upload(r, args[0], c->keyring, c->root, &report, err) < 0) {
		accept_report_destroy(&report);
		registry_close(r);
		return CONFLICTS_FAILED;
	}
	if (report.accepted)
		printf("%s: accepted: %s %s (app %s) from %s, key %s\n",
		       args[0], report.source, report.version, report.app,
		       report.uploader, report.fingerprint);
	for (i = 0; i < report.nreasons; i++)
		printf("%s: refused: %s\n", args[0], report.reasons[i]);
	if (c->json)
		write_accept_json(c->json, &report);
	/* Only an accepted upload has an identity for the later steps. */
	if (c->identity_out != NULL && report.accepted)
		identity_write(c->identity_out, &report.identity);
	registry_close(r);
	rc = report.accepted ? 0 : 1;
	accept_report_destroy(&report);
	return rc;
}

static void
print_uploader(void *ctx, const char *fpr, const char *name,
               const char *added)
{
	struct json_object *o = json_new_object();

	json_add_text(o, "name", name);
	json_add_text(o, "fingerprint", fpr);
	json_add_text(o, "added", added);
	json_object_array_add(ctx, o);
	printf("%s\t%s\t%s\n", name, fpr, added);
}

/* The app ids an uploader still holds, "a, b", for the remove summary. */
static void
collect_app(void *ctx, const char *app, const char *owner,
            const char *claimed, const char *packages, const char *paths)
{
	struct varbuf *held = ctx;

	(void)owner;
	(void)claimed;
	(void)packages;
	(void)paths;
	if (held->used > 0)
		varbuf_add_str(held, ", ");
	varbuf_add_str(held, app);
}

/*
 * uploader remove [--fingerprint FPR] NAME: the key, or all NAME's keys.
 * NAME keeps its claims: nobody else may take its names, and its apps get
 * no upload until a key is registered to NAME again.
 */
static int
uploader_remove(struct conflicts_command *c, const char *const *args,
                struct dpkg_error *err)
{
	struct varbuf held = VARBUF_INIT;
	struct registry *r;
	char canon[65];
	const char *why;
	int ret, removed;

	if (args[0] == NULL || args[1] != NULL || args[0][0] == '\0')
		return usage_error(err, "uploader remove takes one NAME");
	if (c->fingerprint != NULL &&
	    (why = registry_check_fingerprint(c->fingerprint, canon)) != NULL)
		return usage_error(err, "--fingerprint '%s' %s",
		                   c->fingerprint, why);
	ret = open_registry(c, false, &r, err);
	if (ret < 0)
		return ret;
	ret = registry_uploader_remove(r, args[0],
	                               c->fingerprint ? canon : NULL,
	                               &removed, err);
	if (ret < 0) {
		registry_close(r);
		return CONFLICTS_FAILED;
	}
	if (ret > 0) {
		if (c->fingerprint)
			fprintf(stderr, "%s: key %s is not registered to %s\n",
			        args[0], canon, args[0]);
		else
			fprintf(stderr, "%s: no key is registered to %s\n",
			        args[0], args[0]);
		registry_close(r);
		return 1;
	}
	if (c->fingerprint)
		printf("%s: key %s removed\n", args[0], canon);
	else
		printf("%s: %d key%s removed\n", args[0], removed,
		       removed == 1 ? "" : "s");
	ret = registry_list(r, args[0], collect_app, &held, err);
	varbuf_end_str(&held);
	if (ret == 0 && held.used > 0)
		printf("%s: still holds %s: nobody else may claim them; "
		       "'extras-conflicts release --owner %s APP' frees one\n",
		       args[0], held.buf, args[0]);
	varbuf_destroy(&held);
	registry_close(r);
	return ret < 0 ? CONFLICTS_FAILED : 0;
}

static int
list_uploaders(struct registry *r, const struct conflicts_command *c,
               const char *app, struct json_object *a,
               struct dpkg_error *err)
{
	(void)c;
	(void)app;
	return registry_uploader_list(r, print_uploader, a, err);
}

static int
uploader_list(struct conflicts_command *c, const char *const *args,
              struct dpkg_error *err)
{
	if (args[0] != NULL)
		return usage_error(err, "uploader list takes no argument");
	return listing(c, NULL, list_uploaders, err);
}

static int
uploader_add(struct conflicts_command *c, const char *const *args,
             struct dpkg_error *err)
{
	struct registry *r;
	char canon[65], *holder = NULL;
	const char *why;
	int ret;

	if (c->fingerprint == NULL)
		return usage_error(err, "uploader add needs --fingerprint");
	if (args[0] == NULL || args[1] != NULL || args[0][0] == '\0')
		return usage_error(err, "uploader add takes one NAME");
	for (why = args[0]; *why; why++)
		if ((unsigned char)*why < 0x20 || *why == 0x7f ||
		    *why == ',')
			return usage_error(err, "uploader NAME may not hold a "
			                   "control character or a comma");
	if ((why = registry_check_fingerprint(c->fingerprint, canon)) != NULL)
		return usage_error(err, "--fingerprint '%s' %s",
		                   c->fingerprint, why);
	ret = open_registry(c, true, &r, err);
	if (ret < 0)
		return ret;
	ret = registry_uploader_add(r, canon, args[0], &holder, err);
	if (ret > 0)
		fprintf(stderr, "%s: key already registered to %s\n", canon,
		        holder);
	else if (ret == 0)
		printf("%s: key %s registered\n", args[0], canon);
	free(holder);
	registry_close(r);
	return ret < 0 ? CONFLICTS_FAILED : ret;
}

int
conflicts_uploader_command(struct conflicts_command *c,
                           const char *const *args, struct dpkg_error *err)
{
	const char *sub = c->subcommand;

	if (sub != NULL && strcmp(sub, "list") == 0)
		return uploader_list(c, args, err);
	if (sub != NULL && strcmp(sub, "remove") == 0)
		return uploader_remove(c, args, err);
	if (sub == NULL || strcmp(sub, "add") != 0)
		return usage_error(err, "expected 'uploader add', 'uploader "
		                   "remove' or 'uploader list'");
	return uploader_add(c, args, err);
}

/* grant [--owner NAME] APP PRIVILEGE: the store lets the review of
 * APP's uploads by its owner (NAME's, before its first claim) pass
 * PRIVILEGE. */
int
conflicts_grant_command(struct conflicts_command *c, const char *const *args,
                        struct dpkg_error *err)
{
	struct registry *r;
	int ret;

	if (args[0] == NULL || args[1] == NULL || args[2] != NULL)
		return usage_error(err, "grant takes one APP and one "
		                   "PRIVILEGE");
	/* An operator may grant before the app's first upload (for the
	 * uploader --owner names), and before the registry's first use. */
	ret = open_registry(c, true, &r, err);
	if (ret < 0)
		return ret;
	ret = registry_grant_add(r, args[0], args[1], c->owner, err);
	if (ret == 0)
		printf("%s: privilege %s granted\n", args[0], args[1]);
	registry_close(r);
	return ret < 0 ? CONFLICTS_FAILED : 0;
}

int
conflicts_revoke_command(struct conflicts_command *c, const char *const *args,
                         struct dpkg_error *err)
{
	struct registry *r;
	int ret;

	if (args[0] == NULL || args[1] == NULL || args[2] != NULL)
		return usage_error(err, "revoke takes one APP and one "
		                   "PRIVILEGE");
	ret = open_registry(c, false, &r, err);
	if (ret < 0)
		return ret;
	ret = registry_grant_remove(r, args[0], args[1], err);
	if (ret > 0)
		fprintf(stderr, "%s: privilege %s is not granted\n",
		        args[0], args[1]);
	else if (ret == 0)
		printf("%s: privilege %s revoked\n", args[0], args[1]);
	registry_close(r);
	return ret < 0 ? CONFLICTS_FAILED : ret;
}

static void
print_grant(void *ctx, const char *app, const char *privilege,
            const char *owner, const char *granted)
{
	struct json_object *o = json_new_object();

	json_add_text(o, "app", app);
	json_add_text(o, "privilege", privilege);
	json_add_text(o, "owner", owner);
	json_add_text(o, "granted", granted);
	json_object_array_add(ctx, o);
	printf("%s %s %s\n", app, privilege, owner[0] ? owner : "-");
}

static int
list_grants(struct registry *r, const struct conflicts_command *c,
            const char *app, struct json_object *a, struct dpkg_error *err)
{
	(void)c;
	return registry_grants(r, app, print_grant, a, err);
}

int
conflicts_grants_command(struct conflicts_command *c, const char *const *args,
                         struct dpkg_error *err)
{
	const char *why;

	if (args[0] != NULL && args[1] != NULL)
		return usage_error(err, "grants takes at most one APP");
	/* A misspelt id would list nothing, as if it held no grant. */
	if (args[0] != NULL && (why = namespace_check_app(args[0])) != NULL) {
		dpkg_put_error(err, "app id '%s' %s", args[0], why);
		return CONFLICTS_FAILED;
	}
	return listing(c, args[0], list_grants, err);
}
