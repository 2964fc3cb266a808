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
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "dh/dh-manpages.h"
#include "dh/dh-relocate.h"
#include "dh/dh-rename.h"
#include "relocate/relocate.h"
#include "relocate/report.h"
#include "relocate/source-hints.h"
#include "namespace/layout.h"

static void
write_report(const struct report *report, const struct extras_namespace *ns,
             const char *name)
{
	struct atomic_file *file;
	char path[512];

	if (mkdir("debian/.debhelper", 0755) < 0 && errno != EEXIST)
		ohshite("cannot create debian/.debhelper");
	if (mkdir(DH_RELOCATE_REPORT_DIR, 0755) < 0 && errno != EEXIST)
		ohshite("cannot create %s", DH_RELOCATE_REPORT_DIR);
	snprintf(path, sizeof(path), DH_RELOCATE_REPORT_DIR "/%s", name);
	file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	report_write_json(report, ns, false, file->fp);
	/* A build log, not data to recover: no fsync. */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
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

int
dh_relocate(const struct dh_helper *h, const struct declaration *decl,
            struct extras_namespace *ns, const char *report_name,
            bool after_dh_link)
{
	struct relocate_options opt = { 0 };
	struct report report;
	enum relocate_status status;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char **dirs, cmd[8192];
	const char **accepted;
	size_t i, n = 0, len;

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
		struct dh_rename_set set = { names, h->control.count };

		if (names == NULL)
			ohshit("out of memory");
		for (i = 0; i < h->control.count; i++)
			names[i] = h->control.packages[i].name;
		for (i = 0; i < n; i++)
			if (dh_rename_doc_dirs(dirs[i], &set, &err) < 0)
				ohshit("%s", err.str);
		free(names);
	}

	opt.app = ns->app;
	opt.root = ns->root;
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
	report_init(&report);
	status = relocate_trees(&opt, dirs, (int)n, ns, &report, &err);
	if (status == RELOCATE_BAD_INPUT || status == RELOCATE_FAILED)
		ohshit("%s", err.str);
	for (i = 0; i < n; i++)
		dh_compress_manpages(h, dirs[i], ns);
	if (!h->no_act)
		write_report(&report, ns, report_name);
	if (!h->quiet || status == RELOCATE_UNPATCHED)
		report_write_summary(&report, h->name, h->no_act,
		                     status == RELOCATE_UNPATCHED ? stderr : stdout);
	if (status == RELOCATE_UNPATCHED)
		write_source_hints(&report, ns, h->name);
	if (status == RELOCATE_UNPATCHED)
		fprintf(stderr, "%s: error: %zu reference%s to moved paths cannot "
		        "be patched; build the program for the namespace %s, or "
		        "list the file under unpatched: in debian/extras.yaml "
		        "(see %s/%s)\n", h->name, report.n_unpatched,
		        report.n_unpatched == 1 ? "" : "s", ns->path,
		        DH_RELOCATE_REPORT_DIR, report_name);
	report_free(&report);
	free(accepted);
	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return status == RELOCATE_UNPATCHED ? 1 : 0;
}
