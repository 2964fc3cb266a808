/*
 * dh_extras_modules: make the Perl, Ruby and Node programs of a namespace
 * find its modules (run by dh after dh_extras_relocate).
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-modules.h"
#include "dh/dh-namespace.h"

#include "dh_extras_modules.usage.h"

#define NAME "dh_extras_modules"

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	if (dh_modules(&h, &ns, &err) < 0)
		ohshit("%s", err.str);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
