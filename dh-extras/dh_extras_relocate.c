/*
 * dh_extras_relocate: move every binary package's files into the app's
 * namespace and patch what moved (the rewriter, run by dh before dh_link).
 */
#include <stdio.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "dh/dh-relocate.h"

#define NAME "dh_extras_relocate"

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
	"  -X ITEM            move files whose path contains ITEM, but leave\n"
	"                     their contents alone\n"
	"  -p PKG, -N PKG, -a, -i, --remaining-packages, -v, --no-act, -O OPT,\n"
	"  -P DIR             as for every debhelper command\n";

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
	char err[8192];
	int status = 0;

	dh_helper_init(&h, NAME, argc, argv, options, usage);
	if (dh_namespace_find(h.control.source, &decl, &ns, err,
	                      sizeof(err)) < 0)
		ohshit("%s", err);
	if (print_namespace)
		printf("%s\n", ns.path);
	else
		status = dh_relocate(&h, &decl, &ns, "relocate.json");
	declaration_free(&decl);
	dh_helper_done(&h);
	return status;
}
