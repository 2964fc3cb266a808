/*
 * dh_extras_apparmor: confine the app: generate its AppArmor profile from
 * debian/extras.yaml, compile it and install it (run by dh after
 * dh_extras_relocate, before dh_installdeb); dh_extras_scripts gives the
 * package the scripts that load it on install.
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-apparmor.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"

#include "dh_extras_apparmor.usage.h"

#define NAME "dh_extras_apparmor"

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
	if (dh_apparmor(&h, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
