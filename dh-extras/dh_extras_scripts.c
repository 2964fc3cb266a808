/*
 * dh_extras_scripts: give every binary package the maintainer scripts
 * dh-extras generates, and only those (run by dh after dh_installdeb).
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "dh/dh-scripts.h"

#include "dh_extras_scripts.usage.h"

#define NAME "dh_extras_scripts"

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (h.no_scripts) {
		/* As debhelper's -n: the scripts are left alone, and the
		 * gate refuses any but the generated ones. */
		dh_helper_done(&h);
		return 0;
	}
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	if (dh_scripts(&h, &ns, &err) < 0)
		ohshit("%s", err.str);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
