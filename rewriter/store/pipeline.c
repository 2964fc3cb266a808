/*
 * pipeline.c: a job's steps, each one of the existing tools.
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include <dpkg/dpkg.h>

#include "apparmor/profile.h"
#include "base/strings.h"
#include "debian/changes.h"
#include "namespace/identity.h"
#include "store/publish.h"
#include "store/report.h"
#include "store/store-file.h"
#include "store/store.h"

/* A job failing this often, for want of a worker that finishes it,
 * is refused rather than tried for ever. */
#define MAX_ATTEMPTS 3

enum outcome { STEP_OK = 0, STEP_REFUSED = 1 };

struct job {
	const struct store_config *c;
	struct registry *r;
	const struct store_worker *w;
	struct registry_job *row;
	char *dir;		/* STORE/jobs/NAME */
	char *upload;		/* DIR/UPLOAD */
	char *identity;		/* DIR/identity */
	char *json_path, *html_path;
	struct json_object *report;
};

/* DIR/NAME, malloc'd. */
static char *
job_path(const struct job *j, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", j->dir, name) < 0)
		abort();
	return p;
}

static void
progress(const struct job *j, const char *step, const char *what)
{
	if (!j->w->quiet)
		printf("extras-store: job %lld (%s): %s: %s\n", j->row->id,
		       j->row->upload, step, what);
	fflush(stdout);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The strings of array KEY of the tool's report OBJ (or of each
 * object's MEMBER in it). */
static size_t
strings_of(struct json_object *obj, const char *key, const char *member,
           const char ***out)
{
	struct json_object *list, *v;
	size_t i, n = 0;

	*out = NULL;
	if (obj == NULL || !json_object_object_get_ex(obj, key, &list) ||
	    !json_object_is_type(list, json_type_array))
		return 0;
	*out = m_malloc((json_object_array_length(list) + 1) * sizeof(**out));
	for (i = 0; i < json_object_array_length(list); i++) {
		v = json_object_array_get_idx(list, i);
		if (member != NULL &&
		    !json_object_object_get_ex(v, member, &v))
			continue;
		if (json_object_is_type(v, json_type_string))
			(*out)[n++] = json_object_get_string(v);
	}
	return n;
}

/*
 * Run a tool as step STEP: its output in DIR/STEP.log, its report (when
 * TOOL_JSON names one) kept in the job's.  Status 0 is the step passed;
 * 1 to MAX_REFUSAL (for the tools, 1 and 2: refused, bad input, the
 * upload's fault, never the store's) refuse the upload, for the reasons the tool's report lists under
 * REASONS_KEY (REASONS_MEMBER of each), else its last line of output.
 */
static int
run_step(struct job *j, const char *step, const char *const *argv,
         const char *dir, const char *tool_json, const char *reasons_key,
         const char *reasons_member, int max_refusal,
         struct dpkg_error *err)
{
	char *log_name, *log, *command = store_command_line(argv);
	const char **reasons = NULL;
	const char *one[1];
	char *last = NULL;
	size_t nreasons = 0;
	int status, ret = STEP_OK;
	double start = now();

	if (asprintf(&log_name, "%s.log", step) < 0)
		abort();
	log = job_path(j, log_name);
	unlink(log);
	if (tool_json != NULL)
		unlink(tool_json);
	if (store_spawn(argv, dir, log, &status, err) < 0) {
		ret = -1;
		goto out;
	}
	if (status > max_refusal) {
		ret = dpkg_put_error(err, "%s: exit status %d (see %s)",
		                     argv[0], status, log);
		goto out;
	}
	if (status != 0) {
		struct json_object *tool = NULL;

		ret = STEP_REFUSED;
		if (tool_json != NULL && reasons_key != NULL)
			tool = json_object_from_file(tool_json);
		nreasons = strings_of(tool, reasons_key, reasons_member,
		                      &reasons);
		if (nreasons == 0) {
			last = report_last_line(log);
			one[0] = last ? last : "refused, without a reason";
			report_step(j->report, step, "refused", command, log,
			            log_name, tool_json, one, 1);
		} else {
			report_step(j->report, step, "refused", command, log,
			            log_name, tool_json, reasons, nreasons);
		}
		free(reasons);
		json_object_put(tool);
	} else {
		report_step(j->report, step, "ok", command, log, log_name,
		            tool_json, NULL, 0);
	}
	report_seconds(j->report, step, now() - start);
out:
	free(last);
	free(command);
	free(log);
	free(log_name);
	return ret;
}

static const char *
tool_member(struct json_object *tool, const char *key)
{
	struct json_object *v;

	if (tool == NULL || !json_object_object_get_ex(tool, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int
step_accept(struct job *j, struct dpkg_error *err)
{
	char *json = job_path(j, "accept.json");
	const char *argv[] = { "extras-conflicts", "accept", "-d",
	                       j->c->registry, "--keyring", j->c->keyring,
	                       "--identity", j->identity, "--json", json,
	                       j->upload, NULL };
	struct json_object *tool;
	int ret = STEP_OK;

	/* Written once the registry recorded the acceptance: accepting
	 * again would be refused as a replay. */
	if (access(j->identity, F_OK) != 0)
		ret = run_step(j, "accept", argv, NULL, json, "reasons", NULL,
		               2, err);
	tool = report_tool(j->report, "accept");
	report_set(j->report, "source", tool_member(tool, "source"));
	report_set(j->report, "version", tool_member(tool, "version"));
	report_set(j->report, "app", tool_member(tool, "app"));
	report_set(j->report, "uploader", tool_member(tool, "uploader"));
	free(json);
	return ret;
}

/* The .dsc of the upload: itself, or the one its .changes lists. */
static char *
upload_dsc(const struct job *j, struct dpkg_error *err)
{
	struct changes ch;
	char *dsc = NULL;
	size_t i;

	if (strlen(j->upload) > 4 &&
	    strcmp(j->upload + strlen(j->upload) - 4, ".dsc") == 0)
		return m_strdup(j->upload);
	if (changes_read(&ch, j->upload, err) < 0)
		return NULL;
	for (i = 0; i < ch.nfiles && dsc == NULL; i++)
		if (strlen(ch.files[i].name) > 4 &&
		    strcmp(ch.files[i].name + strlen(ch.files[i].name) - 4,
		           ".dsc") == 0)
			dsc = m_strdup(ch.files[i].path);
	changes_destroy(&ch);
	if (dsc == NULL)
		dpkg_put_error(err, "%s: lists no .dsc", j->upload);
	return dsc;
}

static int
step_convert(struct job *j, struct dpkg_error *err)
{
	char *json = job_path(j, "convert.json"), *out = job_path(j, "src");
	char *dsc = upload_dsc(j, err);
	int ret = -1;
	const char **notes;
	size_t i, n;

	if (dsc == NULL || store_remove_tree(out, err) < 0)
		goto out;
	{
		const char *argv[] = { "extras-convert", "--identity",
		                       j->identity, "--json", json, "-o", out,
		                       dsc, NULL };

		ret = run_step(j, "convert", argv, NULL, json, NULL, NULL, 2,
		               err);
	}
	/* What the conversion dropped is what the user loses (its other
	 * notes, renames, stay in the step's report). */
	n = strings_of(report_tool(j->report, "convert"), "notes", "message",
	               &notes);
	for (i = 0; i < n; i++)
		if (strncmp(notes[i], "dropped", 7) == 0)
			report_lose(j->report, notes[i]);
	free(notes);
out:
	free(dsc);
	free(json);
	free(out);
	return ret;
}

/* FMT's one match (a glob under the job), or NULL with ERR set. */
static char *
find_one(const struct job *j, const char *pattern, struct dpkg_error *err)
{
	char *full = job_path(j, pattern), *found = NULL;
	glob_t g;

	if (glob(full, 0, NULL, &g) == 0 && g.gl_pathc == 1)
		found = m_strdup(g.gl_pathv[0]);
	else
		dpkg_put_error(err, "%s: expected one file, found %zu", full,
		               g.gl_pathc);
	globfree(&g);
	free(full);
	return found;
}

/*
 * Build the converted source in build.ATTEMPT (a killed attempt's
 * leftovers never meet the next), renamed to build once it succeeded:
 * sbuild where the store names a chroot, else dpkg-buildpackage in an
 * unpacked copy, as the invoking user, with fakeroot where the package
 * needs root.
 */
static int
step_build(struct job *j, struct dpkg_error *err)
{
	char *dsc = find_one(j, "src/*.dsc", err), *attempt = NULL;
	char *final = job_path(j, "build"), *tree = NULL;
	int ret = -1;

	if (dsc == NULL)
		goto out;
	if (asprintf(&attempt, "%s/build.%d", j->dir, j->row->attempts) < 0 ||
	    asprintf(&tree, "%s/tree", attempt) < 0)
		abort();
	if (store_remove_tree(attempt, err) < 0 ||
	    store_mkdirs(attempt, err) < 0)
		goto out;
	if (j->c->chroot != NULL) {
		char *chroot, *suite;

		if (asprintf(&chroot, "--chroot=%s", j->c->chroot) < 0 ||
		    asprintf(&suite, "--dist=%s", j->c->chroot_suite) < 0)
			abort();
		{
			const char *argv[] = { "sbuild", "--chroot-mode=unshare",
			                       chroot, suite, "--arch-all",
			                       "--no-run-lintian",
			                       "--no-run-piuparts",
			                       "--no-run-autopkgtest", dsc, NULL };

			ret = run_step(j, "build", argv, attempt, NULL, NULL,
			               NULL, 255, err);
		}
		free(chroot);
		free(suite);
	} else {
		const char *unpack[] = { "dpkg-source", "--no-check", "-x", dsc,
		                         tree, NULL };
		/* -d: the local builder builds with what this host has;
		 * sbuild installs the build dependencies. */
		const char *build[] = { "dpkg-buildpackage", "-us", "-uc",
		                        "-b", "-d", "-rfakeroot", NULL };

		ret = run_step(j, "unpack", unpack, NULL, NULL, NULL, NULL,
		               255, err);
		if (ret == STEP_OK)
			ret = run_step(j, "build", build, tree, NULL, NULL,
			               NULL, 255, err);
	}
	if (ret != STEP_OK)
		goto out;
	if (store_remove_tree(final, err) < 0 || rename(attempt, final) < 0) {
		ret = dpkg_put_errno(err, "%s: cannot rename to %s", attempt,
		                     final);
		goto out;
	}
out:
	free(dsc);
	free(attempt);
	free(final);
	free(tree);
	return ret;
}

/* The privileges granted to an app, and for whose uploads, as the
 * registry lists them. */
struct grants {
	char **names;
	char **owners;
	size_t n;
};

static void
add_grant(void *ctx, const char *app, const char *privilege,
          const char *owner, const char *granted)
{
	struct grants *g = ctx;

	(void)app;
	(void)granted;
	g->names = m_realloc(g->names, (g->n + 1) * sizeof(*g->names));
	g->owners = m_realloc(g->owners, (g->n + 1) * sizeof(*g->owners));
	g->names[g->n] = m_strdup(privilege);
	g->owners[g->n++] = m_strdup(owner);
}

/* Say why a grant is not passed to the review. */
static void DPKG_ATTR_PRINTF(2)
grant_left_out(struct job *j, const char *fmt, ...)
{
	char *why = NULL, *what = NULL;
	va_list args;

	va_start(args, fmt);
	if (vasprintf(&why, fmt, args) < 0 ||
	    asprintf(&what, "grant left out: %s", why) < 0)
		abort();
	va_end(args);
	progress(j, "review", what);
	free(what);
	free(why);
}

/*
 * The review, with the reserved privileges the store's operator granted
 * the app the identity names (extras-conflicts grant), each as --grant.
 * A grant is for one uploader's uploads: another's upload of the same
 * id, before the app's first claim, does not get it.  A grant the
 * templates no longer hold reserved (a template changed or went since it
 * was granted) grants nothing: passed on, it would refuse every review
 * of the app until revoked.  Both are left out, and said.
 */
static int
step_review(struct job *j, struct dpkg_error *err)
{
	char *json = job_path(j, "review.json");
	char *changes = find_one(j, "build/*.changes", err);
	struct identity id = { 0 };
	struct grants g = { NULL, NULL, 0 };
	const char **argv = NULL;
	size_t i, n = 0;
	int ret = -1;

	if (changes == NULL || identity_read(&id, j->identity, err) < 0 ||
	    registry_grants(j->r, id.app, add_grant, &g, err) < 0)
		goto out;
	argv = m_malloc((8 + 2 * g.n) * sizeof(*argv));
	argv[n++] = "extras-review";
	argv[n++] = "--identity";
	argv[n++] = j->identity;
	for (i = 0; i < g.n; i++) {
		struct dpkg_error stale = DPKG_ERROR_INIT;

		if (strcmp(g.owners[i], id.uploader) != 0) {
			grant_left_out(j, "privilege %s is granted to %s's "
			               "uploads, not %s's", g.names[i],
			               g.owners[i][0] ? g.owners[i] : "nobody",
			               id.uploader);
			continue;
		}
		if (profile_check_grant(NULL, g.names[i], &stale) < 0) {
			grant_left_out(j, "%s; extras-conflicts revoke drops it",
			               stale.str);
			dpkg_error_destroy(&stale);
			continue;
		}
		argv[n++] = "--grant";
		argv[n++] = g.names[i];
	}
	argv[n++] = "--json";
	argv[n++] = json;
	argv[n++] = changes;
	argv[n] = NULL;
	ret = run_step(j, "review", argv, NULL, json, "problems", "message", 2,
	               err);
out:
	free(argv);
	strings_free(g.names, g.n);
	strings_free(g.owners, g.n);
	identity_free(&id);
	free(changes);
	free(json);
	return ret;
}

static int
step_claim(struct job *j, struct dpkg_error *err)
{
	char *json = job_path(j, "claim.json");
	char *changes = find_one(j, "build/*.changes", err);
	int ret = -1;

	if (changes != NULL) {
		const char *argv[] = { "extras-conflicts", "claim", "-d",
		                       j->c->registry, "--identity", j->identity,
		                       "--json", json, changes, NULL };

		ret = run_step(j, "claim", argv, NULL, json, "reasons", NULL,
		               2, err);
	}
	free(changes);
	free(json);
	return ret;
}

static int
step_publish(struct job *j, struct dpkg_error *err)
{
	char *changes_path = find_one(j, "build/*.changes", err);
	char *log = job_path(j, "publish.log");
	struct changes ch;
	const char **debs;
	size_t i, n = 0;
	int ret = -1;
	double start = now();

	if (changes_path == NULL || changes_read(&ch, changes_path, err) < 0)
		goto out;
	debs = m_malloc((ch.nfiles + 1) * sizeof(*debs));
	for (i = 0; i < ch.nfiles; i++)
		if (changes_file_is_deb(&ch.files[i]))
			debs[n++] = ch.files[i].path;
	unlink(log);
	ret = publish_debs(j->c, debs, n, log, err);
	if (ret == 0) {
		char *what;

		if (asprintf(&what, "reprepro includedeb %s (%zu package(s)), "
		             "published by one rename", j->c->codename, n) < 0)
			abort();
		report_step(j->report, "publish", "ok", what, log,
		            "publish.log", NULL, NULL, 0);
		report_seconds(j->report, "publish", now() - start);
		free(what);
	}
	free(debs);
	changes_destroy(&ch);
out:
	free(changes_path);
	free(log);
	return ret;
}

static const struct step {
	const char *from, *name, *to;
	int (*run)(struct job *j, struct dpkg_error *err);
} steps[] = {
	{ "queued", "accept", "accepted", step_accept },
	{ "accepted", "convert", "converted", step_convert },
	{ "converted", "build", "built", step_build },
	{ "built", "review", "reviewed", step_review },
	{ "reviewed", "claim", "claimed", step_claim },
	{ "claimed", "publish", "published", step_publish },
};

static int
write_report(struct job *j, struct dpkg_error *err)
{
	return report_write(j->report, j->json_path, j->html_path, err);
}

/*
 * Move the job to STATE in the registry and its report.  1 when the
 * lease was lost (another worker took the job): stop, touch nothing.
 */
static int
set_state(struct job *j, const char *state, struct dpkg_error *err)
{
	int ret = registry_job_update(j->r, j->row->id, j->w->name, state,
	                              j->w->lease, err);

	if (ret != 0)
		return ret;
	free(j->row->state);
	j->row->state = m_strdup(state);
	report_set(j->report, "state", state);
	report_set(j->report, "verdict", strcmp(state, "published") == 0 ?
	           "published" : strcmp(state, "refused") == 0 ?
	           "refused" : "in progress");
	return write_report(j, err);
}

/* Run the job's steps from its state; 0, 1 (lease lost) or -1. */
static int
run_job(struct job *j, struct dpkg_error *err)
{
	size_t i;
	int ret;

	json_object_object_add(j->report, "attempts",
	                       json_object_new_int(j->row->attempts));
	if (j->row->attempts > MAX_ATTEMPTS) {
		char *why;

		if (asprintf(&why, "no worker finished the job in %d attempts",
		             MAX_ATTEMPTS) < 0)
			abort();
		report_step(j->report, j->row->state, "refused", NULL, NULL,
		            NULL, NULL, (const char *const *)&why, 1);
		free(why);
		progress(j, j->row->state, "refused: too many attempts");
		return set_state(j, "refused", err);
	}
	while (!registry_job_done(j->row->state)) {
		for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
			if (strcmp(steps[i].from, j->row->state) == 0)
				break;
		if (i == sizeof(steps) / sizeof(steps[0]))
			return dpkg_put_error(err, "job %lld: unknown state "
			                      "'%s'", j->row->id, j->row->state);
		progress(j, steps[i].name, "running");
		ret = steps[i].run(j, err);
		if (ret < 0) {
			progress(j, steps[i].name, "error (the job will be "
			         "taken again)");
			write_report(j, err);
			return -1;
		}
		if (ret == STEP_REFUSED) {
			struct json_object *fix;

			progress(j, steps[i].name, "refused");
			if (json_object_object_get_ex(j->report, "fix", &fix))
				for (size_t k = 0;
				     k < json_object_array_length(fix); k++)
					progress(j, steps[i].name,
					         json_object_get_string(
					         json_object_array_get_idx(fix, k)));
			ret = set_state(j, "refused", err);
		} else {
			progress(j, steps[i].name, "ok");
			ret = set_state(j, steps[i].to, err);
		}
		if (ret != 0)
			return ret;
	}
	return 0;
}

static int
open_job(struct job *j, const struct store_config *c, struct registry *r,
         const struct store_worker *w, struct registry_job *row)
{
	char *reports;

	memset(j, 0, sizeof(*j));
	j->c = c;
	j->r = r;
	j->w = w;
	j->row = row;
	if (asprintf(&j->dir, "%s/%s", c->dir, row->dir) < 0 ||
	    asprintf(&reports, "%s/reports", c->dir) < 0 ||
	    asprintf(&j->json_path, "%s/%lld.json", reports, row->id) < 0 ||
	    asprintf(&j->html_path, "%s/%lld.html", reports, row->id) < 0)
		abort();
	free(reports);
	j->upload = job_path(j, row->upload);
	j->identity = job_path(j, "identity");
	j->report = report_open(j->json_path, row->id, row->upload);
	return 0;
}

static void
close_job(struct job *j)
{
	json_object_put(j->report);
	free(j->dir);
	free(j->upload);
	free(j->identity);
	free(j->json_path);
	free(j->html_path);
}

int
store_work(const struct store_config *c, struct registry *r,
           const struct store_worker *w, int *published, int *refused,
           struct dpkg_error *err)
{
	struct registry_job row;
	struct job j;
	int ret;

	*published = *refused = 0;
	for (;;) {
		ret = registry_job_take(r, w->name, w->lease, &row, err);
		if (ret < 0)
			return -1;
		if (ret == 1)
			return 0;
		open_job(&j, c, r, w, &row);
		if (!w->quiet)
			printf("extras-store: job %lld (%s): taken by %s "
			       "(attempt %d)\n", row.id, row.upload, w->name,
			       row.attempts);
		ret = run_job(&j, err);
		if (ret == 0 && strcmp(row.state, "published") == 0)
			(*published)++;
		else if (ret == 0)
			(*refused)++;
		if (ret == 0 && !w->quiet)
			printf("extras-store: job %lld (%s): %s; report %s\n",
			       row.id, row.upload, row.state, j.html_path);
		else if (ret == 1 && !w->quiet)
			printf("extras-store: job %lld (%s): lease lost: "
			       "another worker has it\n", row.id, row.upload);
		close_job(&j);
		registry_job_destroy(&row);
		if (ret < 0)
			return -1;
		if (w->once)
			return 0;
	}
}
