/*
 * dh-relocate.c: the rewriter run over the staged trees of the packages a
 * dh_extras_* helper acts on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "base/datadir.h"
#include "base/error-at.h"
#include "base/file-rewrite.h"
#include "base/strings.h"
#include "base/template.h"
#include "dh/dh-manpages.h"
#include "dh/dh-relocate.h"
#include "dh/dh-rename.h"
#include "relocate/code-paths.h"
#include "relocate/elf-read.h"
#include "relocate/patch.h"
#include "relocate/relocate.h"
#include "relocate/report.h"
#include "relocate/source-hints.h"
#include "namespace/layout.h"

static int
write_report(const struct report *report, const struct extras_namespace *ns,
             const char *name, struct dpkg_error *err)
{
	struct stat like = { .st_mode = 0644 };
	char path[512], *json = NULL;
	size_t len = 0;
	FILE *fp;
	int ret;

	if (mkdir("debian/.debhelper", 0755) < 0 && errno != EEXIST)
		return put_error_at(err, "debian/.debhelper", 0, "cannot "
		                    "create: %s", strerror(errno));
	if (mkdir(DH_RELOCATE_REPORT_DIR, 0755) < 0 && errno != EEXIST)
		return put_error_at(err, DH_RELOCATE_REPORT_DIR, 0, "cannot "
		                    "create: %s", strerror(errno));
	snprintf(path, sizeof(path), DH_RELOCATE_REPORT_DIR "/%s", name);
	fp = open_memstream(&json, &len);
	if (fp == NULL)
		return put_error_at(err, path, 0, "out of memory");
	report_write_json(report, ns, false, fp);
	if (fclose(fp) != 0) {
		free(json);
		return put_error_at(err, path, 0, "out of memory");
	}
	/* A build log, not data to recover: no fsync. */
	ret = file_replace(path, json, len, &like, false, err);
	free(json);
	return ret;
}

/*
 * For each distinct unpatched string, the places of the unpacked source
 * (the current directory) that define it, and what would set them for
 * the namespace: the offset in an ELF file says little to an author.
 */
static void
write_source_hints(const struct report *report,
                   const struct extras_namespace *ns, const char *progname)
{
	size_t i, j, k;

	for (i = 0; i < report->n_unpatched; i++) {
		const char *string = report->unpatched[i].string;
		struct layout_place place;
		struct source_hints hints;
		struct dpkg_error err = DPKG_ERROR_INIT;
		char replacement[PATH_MAX + 1];

		for (j = 0; j < i; j++)
			if (strcmp(report->unpatched[j].string, string) == 0)
				break;
		if (j < i || string[0] != '/' ||
		    layout_place(ns, string + 1, false, &place) < 0 ||
		    place.kind != LAYOUT_MOVE)
			continue;
		snprintf(replacement, sizeof(replacement), "/%s", place.dest);
		if (source_hints_find(".", string, replacement, &hints,
		                      &err) < 0) {
			fprintf(stderr, "%s: warning: %s\n", progname, err.str);
			dpkg_error_destroy(&err);
			continue;
		}
		for (k = 0; k < hints.n; k++) {
			const struct source_hint *h = &hints.v[k];

			fprintf(stderr, "%s: error: '%s' is set in the source: "
			        "%s:%ld: %s%s%s\n", progname, string, h->file,
			        h->line, h->what, h->fix ? ": " : "",
			        h->fix ? h->fix : "");
		}
		source_hints_free(&hints);
	}
}

/* Whether line LINE of source file FILE holds "STRING", quotes and all. */
static bool
source_line_quotes(const char *file, long line, const char *string)
{
	char buf[8192], quoted[PATH_MAX + 3];
	long n = 0;
	bool found = false;
	FILE *fp = fopen(file, "r");

	if (fp == NULL)
		return false;
	snprintf(quoted, sizeof(quoted), "\"%s\"", string);
	while (!found && fgets(buf, sizeof(buf), fp) != NULL)
		if (strchr(buf, '\n') != NULL && ++n == line)
			found = strstr(buf, quoted) != NULL;
	fclose(fp);
	return found;
}

/*
 * The first place of the source that names PATH as a whole string
 * (a literal, a #define), as "FILE:LINE", in WHERE; false if none.
 */
static bool
source_names(const char *path, const struct extras_namespace *ns,
             char *where, size_t size)
{
	struct source_hints hints;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char replacement[PATH_MAX + 1];
	bool found = false;
	size_t k;

	snprintf(replacement, sizeof(replacement), "%s%s", ns->path,
	         strncmp(path, "/usr/", 5) == 0 ? path + 4 : path);
	if (source_hints_find(".", path, replacement, &hints, &err) < 0) {
		dpkg_error_destroy(&err);
		return false;
	}
	for (k = 0; !found && k < hints.n; k++)
		if (source_line_quotes(hints.v[k].file, hints.v[k].line, path)) {
			snprintf(where, size, "%s:%ld", hints.v[k].file,
			         hints.v[k].line);
			found = true;
		}
	source_hints_free(&hints);
	return found;
}

/* The content of the regular file PATH when it is ELF, else NULL. */
static unsigned char *
read_elf(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	FILE *fp;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < ELF_HEADER_LEN || st.st_size > (64 << 20))
		return NULL;
	fp = fopen(path, "r");
	if (fp == NULL)
		return NULL;
	buf = malloc((size_t)st.st_size);
	if (buf == NULL)
		ohshit("out of memory");
	*len = fread(buf, 1, (size_t)st.st_size, fp);
	fclose(fp);
	if (!elf_is_elf(buf, *len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Directories the package's files moved out of, built by a program from
 * instruction immediates, where the string scan cannot see them, and
 * named by the source as a whole string: unpatched references too, so
 * that the build fails (or the author accepts a fallback) rather than
 * the app finding nothing.
 */
static void
find_code_paths(struct report *report, char **dirs, size_t n,
                const struct extras_namespace *ns)
{
	struct code_paths cp = { NULL, 0 };
	char (*where)[PATH_MAX + 32];
	signed char *named;
	bool *hit;
	size_t *at, i, j, k, moves = report->n_moves;

	for (i = 0; i < moves; i++)
		code_paths_add_dirs(&cp, report->moves[i].from);
	if (cp.n == 0)
		return;
	named = calloc(cp.n, sizeof(*named));	/* 0 unknown, 1 yes, -1 no */
	where = calloc(cp.n, sizeof(*where));
	hit = calloc(cp.n, sizeof(*hit));
	at = calloc(cp.n, sizeof(*at));
	if (named == NULL || where == NULL || hit == NULL || at == NULL)
		ohshit("out of memory");
	for (i = 0; i < moves; i++) {
		const char *to = report->moves[i].to;

		for (j = 0; j < n; j++) {
			char file[PATH_MAX * 2];
			unsigned char *buf;
			size_t len;

			snprintf(file, sizeof(file), "%s%s", dirs[j], to);
			buf = read_elf(file, &len);
			if (buf == NULL)
				continue;
			memset(hit, 0, cp.n);
			for (k = 0; k < cp.n; k++) {
				char reason[PATH_MAX + 200];
				size_t m;

				/* The first candidate of each prefix searches
				 * the code for all that share it. */
				for (m = 0; m < k && memcmp(cp.v[m], cp.v[k],
				                          CODE_PATHS_IMMEDIATE) != 0; m++)
					;
				if (m == k)
					hit[k] = code_paths_in_code(buf, len,
					                            cp.v[k], &at[k]);
				else if ((hit[k] = hit[m]))
					at[k] = at[m];
				if (!hit[k] ||
				    code_paths_in_rodata(buf, len, cp.v[k]))
					continue;
				if (named[k] == 0)
					named[k] = source_names(cp.v[k], ns,
					                        where[k],
					                        sizeof(where[k]))
					           ? 1 : -1;
				if (named[k] < 0)
					continue;
				snprintf(reason, sizeof(reason), "built from "
				         "instruction immediates, where "
				         "relocation cannot see nor patch it "
				         "(named at %s), though files below it "
				         "moved into %s", where[k], ns->path);
				report_unpatched(report, to, (long long)at[k],
				                 cp.v[k], strlen(cp.v[k]), reason);
			}
			free(buf);
			break;
		}
	}
	free(named);
	free(where);
	free(hit);
	free(at);
	code_paths_free(&cp);
}

/*
 * For each distinct unpatched reference, the exact line of
 * debian/extras.yaml that accepts it and nothing else: a program that
 * tries a path it finds first (relative to itself) and the system's
 * only as a fallback works, and its author says so for that string.
 */
static void
write_accept_lines(const struct report *report, const char *progname)
{
	size_t i, j;

	for (i = 0; i < report->n_unpatched; i++) {
		const struct report_unpatched *u = &report->unpatched[i];
		char line[2 * PATH_MAX + 2];

		for (j = 0; j < i; j++)
			if (strcmp(report->unpatched[j].file, u->file) == 0 &&
			    strcmp(report->unpatched[j].string, u->string) == 0)
				break;
		if (j < i || (size_t)snprintf(line, sizeof(line), "%s %s",
		                              u->file, u->string) >= sizeof(line) ||
		    declaration_check_unpatched_path(line) != NULL)
			continue;
		fprintf(stderr, "%s: error: %s: if '%s' is only a fallback "
		        "(tried after a path the program finds first, such as "
		        "one relative to itself), accept this reference alone "
		        "with the line \"  - %s\" under unpatched: in "
		        "debian/extras.yaml\n", progname, u->file, u->string,
		        line);
	}
}

/*
 * What the declaration let through, one line each, so that the log
 * shows it; and the "FILE STRING" items that matched nothing.
 */
static void
write_accepted(const struct report *report, const struct declaration *decl,
               const char *progname)
{
	size_t i, j;

	for (i = 0; i < report->n_accepted; i++) {
		const struct report_unpatched *a = &report->accepted[i];

		fprintf(stderr, "%s: note: %s: offset %lld: '%s' left "
		        "unpatched, as debian/extras.yaml declares\n",
		        progname, a->file, a->offset, a->string);
	}
	for (i = 0; i < decl->n_unpatched; i++) {
		const char *item = decl->unpatched[i].value;
		const char *space = strchr(item, ' ');
		size_t len = space ? (size_t)(space - item) : 0;

		if (space == NULL)
			continue;
		for (j = 0; j < report->n_accepted; j++)
			if (strcmp(report->accepted[j].string, space + 1) == 0 &&
			    strncmp(report->accepted[j].file, item, len) == 0 &&
			    (report->accepted[j].file[len] == '\0' ||
			     item[len - 1] == '/'))
				break;
		if (j == report->n_accepted)
			fprintf(stderr, "%s: warning: debian/extras.yaml: "
			        "unpatched: '%s' matches no reference: remove "
			        "it\n", progname, item);
	}
}

/*
 * The URL schemes an app's .desktop files may not claim: those of
 * templates/exports/url-handlers, unless DECL declares the reserved
 * privilege url-handlers.  The gate refuses such a claim; dropped here,
 * the app installs and runs, only not as the handler of those links.
 */
static int
load_unclaimable(const struct declaration *decl, char ***list, size_t *n,
                 struct dpkg_error *err)
{
	char path[4096];
	size_t i;

	*list = NULL;
	*n = 0;
	for (i = 0; i < decl->n_privileges; i++)
		if (strcmp(decl->privileges[i].value, "url-handlers") == 0)
			return 0;
	snprintf(path, sizeof(path), "%s/templates/exports/url-handlers",
	         dh_extras_datadir());
	return template_list_load(path, list, n, err);
}

/* Each claim dropped from a MimeType=, one warning a line. */
static void
write_dropped_claims(const struct report *report, const char *progname)
{
	size_t i;

	for (i = 0; i < report->n_patches; i++) {
		const struct report_patch *p = &report->patches[i];

		if (strcmp(p->kind, "desktop-mimetype") != 0)
			continue;
		fprintf(stderr, "%s: warning: %s:%ld: MimeType= claim %s "
		        "dropped: the app is no handler of those links "
		        "unless the store grants it the reserved privilege "
		        "url-handlers (debian/extras.yaml)\n", progname,
		        p->file, p->line, p->old);
	}
}

int
dh_relocate(const struct dh_helper *h, const struct declaration *decl,
            struct extras_namespace *ns, const char *report_name,
            bool after_dh_link, struct dpkg_error *err)
{
	struct relocate_options opt = { 0 };
	struct report report;
	enum relocate_status status = RELOCATE_DONE;
	char **dirs, cmd[8192];
	const char **accepted;
	char **unclaimable = NULL;
	size_t i, n = 0, len, n_unclaimable = 0;
	int ret = 0;

	dirs = calloc(h->control.count + 1, sizeof(char *));
	if (dirs == NULL)
		ohshit("out of memory");
	len = (size_t)snprintf(cmd, sizeof(cmd), "extras-rewrite --app %s "
	                       "--root %s%s", ns->app, ns->root,
	                       after_dh_link ? " --links-replace" : "");
	for (i = 0; i < h->control.count; i++) {
		char dir[512];
		struct stat st;

		if (!h->act[i])
			continue;
		dh_helper_tmpdir(h, h->control.packages[i].name, dir, sizeof(dir));
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		dirs[n++] = strdup(dir);
		if (len < sizeof(cmd))
			len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " %s",
			                        dir);
	}
	if (n == 0) {
		free(dirs);
		return 0;
	}
	dh_helper_show(h, "%s", cmd);

	/* The documentation's place outside the namespace is the extras
	 * name the package takes at its edge (dh-rename.h); under the
	 * maintainer's name, the layout would take it for the app's data. */
	if (!h->no_act) {
		const char **names = calloc(h->control.count + 1,
		                            sizeof(*names));
		struct dh_rename_set set = { .names = names,
		                             .n = h->control.count };

		if (names == NULL)
			ohshit("out of memory");
		for (i = 0; i < h->control.count; i++)
			names[i] = h->control.packages[i].name;
		for (i = 0; i < n && ret == 0; i++)
			ret = dh_rename_doc_dirs(dirs[i], &set, err);
		free(names);
		if (ret < 0)
			goto free_dirs;
	}

	opt.dry_run = h->no_act;
	opt.links_replace = after_dh_link;
	accepted = calloc(decl->n_unpatched + 1, sizeof(char *));
	if (accepted == NULL)
		ohshit("out of memory");
	for (i = 0; i < decl->n_unpatched; i++)
		accepted[i] = decl->unpatched[i].value;
	opt.accepted = accepted;
	opt.n_accepted = decl->n_unpatched;
	opt.excluded = (const char *const *)h->excluded;
	opt.n_excluded = h->n_excluded;
	if (load_unclaimable(decl, &unclaimable, &n_unclaimable, err) < 0) {
		ret = -1;
		free(accepted);
		goto free_dirs;
	}
	opt.unclaimable = (const char *const *)unclaimable;
	opt.n_unclaimable = n_unclaimable;
	report_init(&report);
	status = relocate_trees(&opt, (const char *const *)dirs, (int)n, ns,
	                        &report, err);
	if (status == RELOCATE_BAD_INPUT || status == RELOCATE_FAILED) {
		ret = -1;
		goto out;
	}
	if (!after_dh_link) {
		find_code_paths(&report, dirs, n, ns);
		report_accept(&report, opt.accepted, opt.n_accepted);
		if (report.n_unpatched > 0)
			status = RELOCATE_UNPATCHED;
	}
	for (i = 0; i < n && ret == 0; i++) {
		size_t compressed;

		ret = dh_compress_manpages(h, dirs[i], ns, &compressed, err);
	}
	if (ret == 0 && !h->no_act)
		ret = write_report(&report, ns, report_name, err);
	if (ret < 0)
		goto out;
	if (!h->quiet || status == RELOCATE_UNPATCHED)
		report_write_summary(&report, h->name, h->no_act,
		                     status == RELOCATE_UNPATCHED ? stderr : stdout);
	if (!h->quiet)
		write_accepted(&report, decl, h->name);
	write_dropped_claims(&report, h->name);
	if (status == RELOCATE_UNPATCHED) {
		write_source_hints(&report, ns, h->name);
		write_accept_lines(&report, h->name);
		fprintf(stderr, "%s: error: %zu reference%s to moved paths cannot "
		        "be patched; build the program for the namespace %s, or "
		        "accept a fallback under unpatched: in debian/extras.yaml "
		        "(see %s/%s)\n", h->name, report.n_unpatched,
		        report.n_unpatched == 1 ? "" : "s", ns->path,
		        DH_RELOCATE_REPORT_DIR, report_name);
	}
out:
	report_free(&report);
	free(accepted);
	strings_free(unclaimable, n_unclaimable);
free_dirs:
	strings_free(dirs, n);
	if (ret < 0)
		return -1;
	return status == RELOCATE_UNPATCHED ? 1 : 0;
}
