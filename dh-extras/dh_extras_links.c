/*
 * dh_extras_links: move into the namespace the links dh_link made from
 * debian/PKG.links after the relocation (run by dh right after dh_link).
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "dh/dh-relocate.h"

#include "dh_extras_links.usage.h"

#define NAME "dh_extras_links"

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int status;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	status = dh_relocate(&h, &decl, &ns, "links.json", true, &err);
	if (status < 0)
		ohshit("%s", err.str);
	declaration_free(&decl);
	dh_helper_done(&h);
	return status;
}
