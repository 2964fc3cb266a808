/*
 * dh_extras_relocate: move every binary package's files into the app's
 * namespace and patch what moved (the rewriter, run by dh before dh_link).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "declaration.h"
#include "dh-helper.h"
#include "dh-namespace.h"
#include "dh-namespace.h"
#include "relocate.h"
#include "report.h"

#define NAME "dh_extras_relocate"
#define REPORT_DIR "debian/.debhelper/extras"

static const char usage[] =
	"Usage: " NAME " [debhelper options] [--print-namespace]\n"
	"\n"
	"Move the files of every binary package (debian/PKG/) into the\n"
	"namespace ROOT/APP, export .desktop files, icons and D-Bus services\n"
	"under extras- names, and patch the references to what moved.  APP\n"
	"and ROOT come from debian/extras.yaml, else from the source name.\n"
	"Fails when a reference cannot be patched safely.\n"
	"\n"
	"  --print-namespace  print ROOT/APP and exit\n"
	"  -p PKG, -N PKG, -a, -i, --remaining-packages, -v, --no-act, -O OPT\n"
	"                     as for every debhelper command\n";

static void
write_report(const struct report *report, const struct extras_namespace *ns)
{
	struct atomic_file *file;

	if (mkdir("debian/.debhelper", 0755) < 0 && errno != EEXIST)
		ohshite("cannot create debian/.debhelper");
	if (mkdir(REPORT_DIR, 0755) < 0 && errno != EEXIST)
		ohshite("cannot create %s", REPORT_DIR);
	file = atomic_file_new(REPORT_DIR "/relocate.json", ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	report_write_json(report, ns, false, file->fp);
	/* A build log, not data to recover: no fsync. */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
}

int
main(int argc, char **argv)
{
	bool print_namespace = false;
	const struct dh_option options[] = {
		{ "--print-namespace", false, NULL, &print_namespace },
		{ NULL, false, NULL, NULL },
	};
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct relocate_options opt = { 0 };
	struct report report;
	enum relocate_status status;
	char **dirs, cmd[8192], err[8192];
	const char **accepted;
	size_t i, n = 0, len;

	dh_helper_init(&h, NAME, argc, argv, options, usage);
	if (dh_namespace_find(h.control.source, &decl, &ns, err,
	                      sizeof(err)) < 0)
		ohshit("%s", err);
	if (print_namespace) {
		printf("%s\n", ns.path);
		declaration_free(&decl);
		dh_helper_done(&h);
		return 0;
	}
	dirs = calloc(h.control.count + 1, sizeof(char *));
	if (dirs == NULL)
		ohshit("out of memory");
	len = (size_t)snprintf(cmd, sizeof(cmd), "extras-rewrite --app %s "
	                       "--root %s", ns.app, ns.root);
	for (i = 0; i < h.control.count; i++) {
		char dir[512];
		struct stat st;

		if (!h.act[i])
			continue;
		snprintf(dir, sizeof(dir), "debian/%s", h.control.packages[i].name);
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		dirs[n++] = strdup(dir);
		if (len < sizeof(cmd))
			len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " %s",
			                        dir);
	}
	if (n == 0) {
		free(dirs);
		declaration_free(&decl);
		dh_helper_done(&h);
		return 0;
	}
	dh_helper_show(&h, "%s", cmd);

	opt.app = ns.app;
	opt.root = ns.root;
	opt.dry_run = h.no_act;
	accepted = calloc(decl.n_unpatched + 1, sizeof(char *));
	if (accepted == NULL)
		ohshit("out of memory");
	for (i = 0; i < decl.n_unpatched; i++)
		accepted[i] = decl.unpatched[i].value;
	opt.accepted = accepted;
	opt.n_accepted = decl.n_unpatched;
	report_init(&report);
	status = relocate_trees(&opt, dirs, (int)n, &ns, &report, err,
	                        sizeof(err));
	if (status == RELOCATE_BAD_INPUT || status == RELOCATE_FAILED)
		ohshit("%s", err);
	if (!h.no_act)
		write_report(&report, &ns);
	if (!h.quiet || status == RELOCATE_UNPATCHED)
		report_write_summary(&report, NAME, h.no_act,
		                     status == RELOCATE_UNPATCHED ? stderr : stdout);
	if (status == RELOCATE_UNPATCHED)
		fprintf(stderr, "%s: error: %zu reference%s to moved paths cannot "
		        "be patched; build the program for the namespace %s, or "
		        "list the file under unpatched: in debian/extras.yaml "
		        "(see %s/relocate.json)\n", NAME, report.n_unpatched,
		        report.n_unpatched == 1 ? "" : "s", ns.path, REPORT_DIR);
	report_free(&report);
	free(accepted);
	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	declaration_free(&decl);
	dh_helper_done(&h);
	return status == RELOCATE_UNPATCHED ? 1 : 0;
}
