/*
 * extras-conflicts: check packages' names and files against every indexed
 * archive and every app's claim; record claims; accept signed uploads
 * from registered uploaders.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>
#include <dpkg/varbuf.h>

#include "base/output.h"
#include "base/version.h"
#include "debian/changes.h"
#include "conflicts/accept.h"
#include "conflicts/conflicts.h"
#include "debian/debfile.h"
#include "base/json.h"
#include "conflicts/registry.h"
#include "namespace/identity.h"

#include "extras-conflicts.usage.h"

static void
usage(void)
{
	fputs(help_text, stdout);
}

static const char *db, *archive, *owner, *root, *json_path, *keyring;
static const char *fingerprint, *identity_path;

static void
help(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	(void)value;
	usage();
	exit(0);
}

static const struct cmdinfo cmdinfos[] = {
	{ "db", 'd', 1, NULL, &db, NULL, 0, NULL, NULL },
	{ "archive", 0, 1, NULL, &archive, NULL, 0, NULL, NULL },
	{ "owner", 0, 1, NULL, &owner, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &root, NULL, 0, NULL, NULL },
	{ "json", 0, 1, NULL, &json_path, NULL, 0, NULL, NULL },
	{ "keyring", 0, 1, NULL, &keyring, NULL, 0, NULL, NULL },
	{ "fingerprint", 0, 1, NULL, &fingerprint, NULL, 0, NULL, NULL },
	{ "identity", 0, 1, NULL, &identity_path, NULL, 0, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help, 0, NULL, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

static void json_open(struct json *j);
static void json_close(void);
static void json_strings(struct json *j, const char *key, char *const *v,
                         size_t n);

/* Static, so that what an error exit leaves is still reachable. */
static struct registry *registry;

static struct registry *
open_registry(bool create)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	if (db == NULL)
		badusage("-d DB is required");
	if (registry_open(&registry, db, create, &err) < 0)
		ohshit("%s", err.str);
	return registry;
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

static int
do_index(const char *const *files)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct contents_stats stats = { 0 };
	struct registry *r;
	char *label;
	int nfiles = 0;

	while (files[nfiles])
		nfiles++;
	if (nfiles == 0)
		badusage("index needs at least one Contents file");
	label = archive ? m_strdup(archive) : default_label(files[0]);
	if (registry_check_label(label) != NULL)
		ohshit("archive label '%s' %s (use --archive)", label,
		       registry_check_label(label));
	r = open_registry(true);
	if (registry_index(r, label, files, nfiles, &stats, &err) < 0)
		ohshit("%s", err.str);
	printf("%s: %llu paths indexed from %d file(s), %llu line(s) "
	       "ignored\n", label, (unsigned long long)stats.entries, nfiles,
	       (unsigned long long)stats.bad_lines);
	if (json_path) {
		struct json j;

		json_open(&j);
		json_object_begin(&j);
		json_member_string(&j, "archive", label);
		json_strings(&j, "files", (char *const *)files, nfiles);
		json_member_int(&j, "lines", stats.lines);
		json_member_int(&j, "paths", stats.entries);
		json_member_int(&j, "directories", stats.directories);
		json_member_int(&j, "ignored", stats.bad_lines);
		json_key(&j, "bytes");
		if (stats.index_bytes)
			json_int(&j, stats.index_bytes);
		else
			json_null(&j);
		json_object_end(&j);
		json_close();
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
add_deb(struct debs *debs, const char *file)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	debs->v = m_realloc(debs->v, (debs->n + 1) * sizeof(*debs->v));
	if (debfile_read(&debs->v[debs->n], file, &err) < 0)
		ohshit("%s", err.str);
	debs->n++;
}

static void
read_inputs(struct debs *debs, const char *const *files)
{
	size_t i;

	if (files[0] == NULL)
		badusage("expected FILE.deb or FILE.changes arguments");
	for (; *files; files++) {
		size_t len = strlen(*files);

		if (len > 8 && strcmp(*files + len - 8, ".changes") == 0) {
			struct dpkg_error err = DPKG_ERROR_INIT;
			struct changes ch;
			size_t before = debs->n;

			if (changes_read(&ch, *files, &err) < 0)
				ohshit("%s", err.str);
			for (i = 0; i < ch.nfiles; i++)
				if (changes_file_is_deb(&ch.files[i]))
					add_deb(debs, ch.files[i].path);
			if (debs->n == before)
				ohshit("%s: lists no binary package", *files);
			changes_destroy(&ch);
		} else {
			add_deb(debs, *files);
		}
	}
}

static void
free_debs(struct debs *debs)
{
	size_t i;

	for (i = 0; i < debs->n; i++)
		debfile_destroy(&debs->v[i]);
	free(debs->v);
}

static void
json_nullable(struct json *j, const char *key, const char *value)
{
	json_key(j, key);
	if (value)
		json_string(j, value);
	else
		json_null(j);
}

/* The report is written beside REPORT, then renamed into place. */
static char *json_tmp;
static FILE *json_fp;

static void
json_open(struct json *j)
{
	json_tmp = m_malloc(strlen(json_path) + 8);
	sprintf(json_tmp, "%s.new", json_path);
	json_fp = fopen(json_tmp, "w");
	if (json_fp == NULL)
		ohshite("cannot write %s", json_tmp);
	json_init(j, json_fp);
}

static void
json_close(void)
{
	fputc('\n', json_fp);
	if (fflush(json_fp) != 0 || fsync(fileno(json_fp)) != 0 ||
	    fclose(json_fp) != 0)
		ohshite("cannot write %s", json_tmp);
	if (rename(json_tmp, json_path) < 0)
		ohshite("cannot rename %s to %s", json_tmp, json_path);
	free(json_tmp);
}

/* One conflict of FILE as a JSON object. */
static void
json_conflict(struct json *j, const char *file, const struct conflict *c)
{
	char line[8192];

	conflicts_describe(c, line, sizeof(line));
	json_object_begin(j);
	json_member_string(j, "file", file);
	json_member_string(j, "package", c->package);
	json_member_string(j, "kind", conflicts_kind_name(c->kind));
	json_member_string(j, "name", c->name);
	json_nullable(j, "archive", c->archive);
	json_nullable(j, "other", c->other);
	json_nullable(j, "owner", c->owner);
	json_member_string(j, "message", line);
	json_object_end(j);
}

static void
write_json(const struct debs *debs, const struct conflict_list *lists)
{
	struct json j;
	size_t d, i;

	json_open(&j);
	json_object_begin(&j);
	json_key(&j, "packages");
	json_array_begin(&j);
	for (d = 0; d < debs->n; d++) {
		struct dpkg_error err = DPKG_ERROR_INIT;
		struct extras_namespace ns;

		if (conflicts_namespace(&debs->v[d], root, &ns, &err) < 0)
			ohshit("%s", err.str);
		json_object_begin(&j);
		json_member_string(&j, "file", debs->v[d].filename);
		json_member_string(&j, "package", debs->v[d].package);
		json_member_string(&j, "version", debs->v[d].version);
		json_member_string(&j, "app", ns.app);
		json_member_bool(&j, "extras",
		                 conflicts_is_extras(&debs->v[d]));
		json_nullable(&j, "root", ns.root[0] ? ns.root : NULL);
		json_member_int(&j, "conflicts", lists[d].n);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "conflicts");
	json_array_begin(&j);
	for (d = 0; d < debs->n; d++)
		for (i = 0; i < lists[d].n; i++)
			json_conflict(&j, debs->v[d].filename, &lists[d].v[i]);
	json_array_end(&j);
	json_object_end(&j);
	json_close();
}

static struct debs debs;
static struct conflict_list *lists;

static int
do_check(const char *const *files)
{
	struct conflicts_options opt = { root, owner, false };
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct registry *r;
	size_t d, i, total = 0;

	read_inputs(&debs, files);
	r = open_registry(false);
	lists = m_malloc(debs.n * sizeof(*lists));
	memset(lists, 0, debs.n * sizeof(*lists));
	for (d = 0; d < debs.n; d++) {
		if (conflicts_check(r, &debs.v[d], &opt, &lists[d], &err) < 0)
			ohshit("%s", err.str);
		for (i = 0; i < lists[d].n; i++) {
			char line[8192];

			conflicts_describe(&lists[d].v[i], line, sizeof(line));
			printf("%s: %s\n", debs.v[d].filename, line);
		}
		total += lists[d].n;
	}
	if (json_path)
		write_json(&debs, lists);
	for (d = 0; d < debs.n; d++)
		conflict_list_destroy(&lists[d]);
	free(lists);
	registry_close(r);
	free_debs(&debs);
	return total ? 1 : 0;
}

static char **refusals;
static size_t nrefusals;

static void
print_refusal(void *ctx, const char *reason)
{
	fprintf(stderr, "%s: %s\n", (const char *)ctx, reason);
	refusals = m_realloc(refusals, (nrefusals + 1) * sizeof(*refusals));
	refusals[nrefusals++] = m_strdup(reason);
}

static struct registry_claim claim;
static struct identity identity;

/*
 * With --identity: the app, the owner and every package are the store's
 * decision; a package that disagrees is refused before anything is
 * recorded.
 */
static void
check_identity(const struct extras_namespace *ns)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t d;
	int bad = 0;

	if (identity_path == NULL)
		return;
	if (identity_read(&identity, identity_path, &err) < 0)
		ohshit("%s", err.str);
	if (owner == NULL)
		owner = identity.uploader;
	else if (strcmp(owner, identity.uploader) != 0)
		badusage("--owner %s is not %s, the uploader of %s", owner,
		         identity.uploader, identity_path);
	if (strcmp(ns->app, identity.app) != 0) {
		fprintf(stderr, "%s: app id %s is not %s, the app of %s\n",
		        ns->app, ns->app, identity.app, identity_path);
		bad++;
	}
	for (d = 0; d < debs.n; d++) {
		if (!identity_has_package(&identity, debs.v[d].package)) {
			fprintf(stderr, "%s: package %s is not one of app %s's "
			        "packages in %s\n", ns->app, debs.v[d].package,
			        identity.app, identity_path);
			bad++;
		}
		if (strcmp(debs.v[d].source, identity.source) != 0) {
			fprintf(stderr, "%s: %s is built from source %s, not "
			        "%s\n", ns->app, debs.v[d].filename,
			        debs.v[d].source, identity.source);
			bad++;
		}
	}
	if (bad) {
		identity_free(&identity);
		free_debs(&debs);
		exit(1);
	}
}

/*
 * Exported files in another owner's export names: refused (a file
 * another app claimed is the registry's to refuse).
 */
static void
check_export_names(struct registry *r)
{
	struct conflicts_options opt = { root, owner, false };
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct conflict_list list = { NULL, 0 };
	size_t d, i;

	for (d = 0; d < debs.n; d++)
		if (conflicts_check(r, &debs.v[d], &opt, &list, &err) < 0)
			ohshit("%s", err.str);
	for (i = 0; i < list.n; i++) {
		char line[8192];

		if (list.v[i].kind != CONFLICT_EXPORT_NAME)
			continue;
		conflicts_describe(&list.v[i], line, sizeof(line));
		print_refusal((void *)claim.app, line);
	}
	conflict_list_destroy(&list);
}

static int
do_claim(const char *const *files)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct extras_namespace ns;
	struct registry *r;
	size_t d, i, n;
	int ret;

	if ((owner == NULL || owner[0] == '\0') && identity_path == NULL)
		badusage("claim needs --owner or --identity");
	read_inputs(&debs, files);
	if (conflicts_namespace(&debs.v[0], root, &ns, &err) < 0)
		ohshit("%s", err.str);
	check_identity(&ns);
	claim.app = ns.app;
	claim.owner = owner;
	claim.packages = m_malloc(debs.n * sizeof(char *));
	for (d = 0; d < debs.n; d++) {
		struct extras_namespace dns;
		size_t *exports;

		if (conflicts_namespace(&debs.v[d], root, &dns, &err) < 0)
			ohshit("%s", err.str);
		if (strcmp(dns.app, ns.app) != 0)
			ohshit("%s: app id '%s' differs from %s's '%s'",
			       debs.v[d].filename, dns.app, debs.v[0].filename,
			       ns.app);
		claim.packages[claim.npackages++] = debs.v[d].package;
		exports = conflicts_exports(&debs.v[d], &dns, &n);
		claim.paths = m_realloc(claim.paths, (claim.npaths + n) *
		                        sizeof(char *));
		claim.path_packages = m_realloc(claim.path_packages,
		                                (claim.npaths + n) *
		                                sizeof(char *));
		for (i = 0; i < n; i++) {
			claim.paths[claim.npaths] =
				debs.v[d].members[exports[i]].path;
			claim.path_packages[claim.npaths++] =
				debs.v[d].package;
		}
		free(exports);
	}
	r = open_registry(true);
	check_export_names(r);
	ret = nrefusals ? 1 : registry_claim(r, &claim, print_refusal,
	                                     (void *)ns.app, &err);
	if (ret < 0)
		ohshit("%s", err.str);
	if (ret == 0)
		printf("%s: claimed by %s (%zu package(s), %zu exported "
		       "path(s))\n", ns.app, owner, claim.npackages,
		       claim.npaths);
	if (json_path) {
		struct json j;

		json_open(&j);
		json_object_begin(&j);
		json_member_string(&j, "app", ns.app);
		json_member_string(&j, "owner", owner);
		json_member_bool(&j, "claimed", ret == 0);
		json_strings(&j, "packages", (char *const *)claim.packages,
		             claim.npackages);
		json_member_int(&j, "files", claim.npaths);
		json_strings(&j, "reasons", refusals, nrefusals);
		json_object_end(&j);
		json_close();
	}
	for (i = 0; i < nrefusals; i++)
		free(refusals[i]);
	free(refusals);
	registry_close(r);
	free(claim.packages);
	free(claim.paths);
	free(claim.path_packages);
	free_debs(&debs);
	identity_free(&identity);
	return ret;
}

static int
do_release(const char *const *apps)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct registry *r;
	struct json j;
	int status = 0;

	if (owner == NULL || owner[0] == '\0')
		badusage("release needs --owner");
	if (apps[0] == NULL)
		badusage("release needs at least one APP");
	r = open_registry(false);
	if (json_path) {
		json_open(&j);
		json_array_begin(&j);
	}
	for (; *apps; apps++) {
		int ret = registry_release(r, owner, *apps, &err);

		if (ret < 0)
			ohshit("%s", err.str);
		if (ret > 0) {
			fprintf(stderr, "%s: not claimed by %s\n", *apps, owner);
			status = 1;
		} else {
			printf("%s: released\n", *apps);
		}
		if (json_path) {
			json_object_begin(&j);
			json_member_string(&j, "app", *apps);
			json_member_bool(&j, "released", ret == 0);
			json_object_end(&j);
		}
	}
	if (json_path) {
		json_array_end(&j);
		json_close();
	}
	registry_close(r);
	return status;
}

/* The lines of TEXT as a JSON array under KEY, each after PREFIX. */
static void
json_lines(struct json *j, const char *key, const char *prefix,
           const char *text)
{
	const char *p;

	json_key(j, key);
	json_array_begin(j);
	for (p = text; *p; ) {
		size_t n = strcspn(p, "\n");
		char *item = m_malloc(strlen(prefix) + n + 1);

		sprintf(item, "%s%.*s", prefix, (int)n, p);
		json_string(j, item);
		free(item);
		p += n + (p[n] == '\n');
	}
	json_array_end(j);
}

static void
print_claim(void *ctx, const char *app, const char *claim_owner,
            const char *claimed, const char *packages, const char *paths)
{
	struct json *j = ctx;
	const char *p;

	if (j != NULL) {
		json_object_begin(j);
		json_member_string(j, "app", app);
		json_member_string(j, "owner", claim_owner);
		json_member_string(j, "claimed", claimed);
		json_lines(j, "packages", "", packages);
		json_lines(j, "files", "/", paths);
		json_object_end(j);
	}
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

static int
do_list(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct registry *r;
	struct json j;

	if (args[0] != NULL)
		badusage("list takes no argument");

	r = open_registry(false);
	if (json_path) {
		json_open(&j);
		json_array_begin(&j);
	}
	if (registry_list(r, owner, print_claim, json_path ? &j : NULL,
	                  &err) < 0)
		ohshit("%s", err.str);
	if (json_path) {
		json_array_end(&j);
		json_close();
	}
	registry_close(r);
	return 0;
}

static void
json_strings(struct json *j, const char *key, char *const *v, size_t n)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < n; i++)
		json_string(j, v[i]);
	json_array_end(j);
}

static void
write_accept_json(const struct accept_report *rep)
{
	struct json j;
	size_t i;

	json_open(&j);
	json_object_begin(&j);
	json_member_string(&j, "file", rep->file);
	json_member_bool(&j, "accepted", rep->accepted);
	json_nullable(&j, "source", rep->source);
	json_nullable(&j, "version", rep->version);
	json_nullable(&j, "app", rep->app);
	json_member_bool(&j, "signature", rep->signature_ok);
	json_nullable(&j, "fingerprint", rep->fingerprint[0] ?
	              rep->fingerprint : NULL);
	json_nullable(&j, "uploader", rep->uploader);
	json_strings(&j, "packages", rep->packages, rep->npackages);
	json_strings(&j, "reasons", rep->reasons, rep->nreasons);
	/* What the later steps are handed (--identity), once accepted. */
	json_key(&j, "identity");
	if (rep->accepted) {
		json_object_begin(&j);
		json_member_string(&j, "app", rep->identity.app);
		json_member_string(&j, "source", rep->identity.source);
		json_member_string(&j, "version", rep->identity.version);
		json_member_string(&j, "uploader", rep->identity.uploader);
		json_strings(&j, "packages", rep->identity.packages,
		             rep->identity.npackages);
		json_object_end(&j);
	} else {
		json_null(&j);
	}
	json_key(&j, "conflicts");
	json_array_begin(&j);
	for (i = 0; i < rep->conflicts.n; i++)
		json_conflict(&j, rep->file, &rep->conflicts.v[i]);
	json_array_end(&j);
	json_object_end(&j);
	json_close();
}

static struct accept_report report;

static void
write_identity(FILE *fp, const void *data)
{
	identity_write(fp, data);
}

static int
do_accept(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct registry *r;
	size_t i;

	if (keyring == NULL)
		badusage("accept needs --keyring");
	if (args[0] == NULL || args[1] != NULL)
		badusage("accept takes one UPLOAD.changes or UPLOAD.dsc");
	r = open_registry(true);
	if (accept_upload(r, args[0], keyring, root, &report, &err) < 0)
		ohshit("%s", err.str);
	if (report.accepted)
		printf("%s: accepted: %s %s (app %s) from %s, key %s\n",
		       args[0], report.source, report.version, report.app,
		       report.uploader, report.fingerprint);
	for (i = 0; i < report.nreasons; i++)
		printf("%s: refused: %s\n", args[0], report.reasons[i]);
	if (json_path)
		write_accept_json(&report);
	/* Only an accepted upload has an identity for the later steps. */
	if (identity_path != NULL && report.accepted)
		output_replace(identity_path, write_identity, &report.identity);
	registry_close(r);
	i = report.accepted;
	accept_report_destroy(&report);
	return i ? 0 : 1;
}

static void
print_uploader(void *ctx, const char *fpr, const char *name,
               const char *added)
{
	struct json *j = ctx;

	if (j == NULL) {
		printf("%s\t%s\t%s\n", name, fpr, added);
		return;
	}
	json_object_begin(j);
	json_member_string(j, "name", name);
	json_member_string(j, "fingerprint", fpr);
	json_member_string(j, "added", added);
	json_object_end(j);
	printf("%s\t%s\t%s\n", name, fpr, added);
}

static const char *subcommand;

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
uploader_remove(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct varbuf held = VARBUF_INIT;
	struct registry *r;
	char canon[65];
	const char *why;
	int ret, removed;

	if (args[0] == NULL || args[1] != NULL || args[0][0] == '\0')
		badusage("uploader remove takes one NAME");
	if (fingerprint != NULL &&
	    (why = registry_check_fingerprint(fingerprint, canon)) != NULL)
		badusage("--fingerprint '%s' %s", fingerprint, why);
	r = open_registry(false);
	ret = registry_uploader_remove(r, args[0], fingerprint ? canon : NULL,
	                               &removed, &err);
	if (ret < 0)
		ohshit("%s", err.str);
	if (ret > 0) {
		if (fingerprint)
			fprintf(stderr, "%s: key %s is not registered to %s\n",
			        args[0], canon, args[0]);
		else
			fprintf(stderr, "%s: no key is registered to %s\n",
			        args[0], args[0]);
		registry_close(r);
		return 1;
	}
	if (fingerprint)
		printf("%s: key %s removed\n", args[0], canon);
	else
		printf("%s: %d key%s removed\n", args[0], removed,
		       removed == 1 ? "" : "s");
	if (registry_list(r, args[0], collect_app, &held, &err) < 0)
		ohshit("%s", err.str);
	varbuf_end_str(&held);
	if (held.used > 0)
		printf("%s: still holds %s: nobody else may claim them; "
		       "'extras-conflicts release --owner %s APP' frees one\n",
		       args[0], held.buf, args[0]);
	varbuf_destroy(&held);
	registry_close(r);
	return 0;
}

static int
do_uploader(const char *const *args)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct registry *r;
	char canon[65], *holder = NULL;
	const char *why;
	int ret;

	if (subcommand != NULL && strcmp(subcommand, "list") == 0) {
		struct json j;

		if (args[0] != NULL)
			badusage("uploader list takes no argument");
		r = open_registry(false);
		if (json_path) {
			json_open(&j);
			json_array_begin(&j);
		}
		if (registry_uploader_list(r, print_uploader,
		                           json_path ? &j : NULL, &err) < 0)
			ohshit("%s", err.str);
		if (json_path) {
			json_array_end(&j);
			json_close();
		}
		registry_close(r);
		return 0;
	}
	if (subcommand != NULL && strcmp(subcommand, "remove") == 0)
		return uploader_remove(args);
	if (subcommand == NULL || strcmp(subcommand, "add") != 0)
		badusage("expected 'uploader add', 'uploader remove' or "
		         "'uploader list'");
	if (fingerprint == NULL)
		badusage("uploader add needs --fingerprint");
	if (args[0] == NULL || args[1] != NULL || args[0][0] == '\0')
		badusage("uploader add takes one NAME");
	for (why = args[0]; *why; why++)
		if ((unsigned char)*why < 0x20 || *why == 0x7f ||
		    *why == ',')
			badusage("uploader NAME may not hold a control "
			         "character or a comma");
	if ((why = registry_check_fingerprint(fingerprint, canon)) != NULL)
		badusage("--fingerprint '%s' %s", fingerprint, why);
	r = open_registry(true);
	ret = registry_uploader_add(r, canon, args[0], &holder, &err);
	if (ret < 0)
		ohshit("%s", err.str);
	if (ret > 0)
		fprintf(stderr, "%s: key already registered to %s\n", canon,
		        holder);
	else
		printf("%s: key %s registered\n", args[0], canon);
	free(holder);
	registry_close(r);
	return ret;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const char *const *args);
	} commands[] = {
		{ "index", do_index },
		{ "check", do_check },
		{ "claim", do_claim },
		{ "release", do_release },
		{ "list", do_list },
		{ "accept", do_accept },
		{ "uploader", do_uploader },
	};
	const char *const *argp = (const char *const *)argv;
	size_t i;
	int status;

	(void)argc;
	dpkg_program_init("extras-conflicts");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (argp[0] == NULL)
		badusage("expected a command: index, check, claim, release, "
		         "list, accept or uploader");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argp[0], commands[i].name) == 0)
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		badusage("unknown command '%s'", argp[0]);
	/* Options follow the command; the parser skips its name. */
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	/* And the subcommand's: "uploader add -d DB ...". */
	if (commands[i].run == do_uploader && argp[0] != NULL) {
		subcommand = argp[0];
		dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	}
	if (root != NULL && namespace_check_root(root) != NULL)
		badusage("--root '%s' %s", root, namespace_check_root(root));
	status = commands[i].run(argp);
	if (fflush(stdout) != 0)
		ohshite("cannot write to standard output");
	dpkg_program_done();
	return status;
}
