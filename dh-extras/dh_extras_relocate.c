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

#include "dh_extras_relocate.usage.h"

#define NAME "dh_extras_relocate"

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
	struct dpkg_error err = DPKG_ERROR_INIT;
	int status = 0;

	dh_helper_init(&h, NAME, argc, argv, options, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	if (print_namespace)
		printf("%s\n", ns.path);
	else
		status = dh_relocate(&h, &decl, &ns, "relocate.json",
		                     false, &err);
	if (status < 0)
		ohshit("%s", err.str);
	declaration_free(&decl);
	dh_helper_done(&h);
	return status;
}
