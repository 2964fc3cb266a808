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

#define NAME "dh_extras_links"

static const char usage[] =
	"Usage: " NAME " [debhelper options]\n"
	"\n"
	"dh_link makes the links debian/PKG.links lists where the maintainer\n"
	"wrote them (usr/games/foo), after dh_extras_relocate has moved\n"
	"everything else into the namespace.  Move those links into the\n"
	"namespace too, pointing where their targets went; everything already\n"
	"there is left as it is.\n"
	"\n"
	"  -X ITEM            as for dh_extras_relocate\n"
	"  -p PKG, -N PKG, -a, -i, --remaining-packages, -v, --no-act, -O OPT,\n"
	"  -P DIR             as for every debhelper command\n";

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	char err[8192];
	int status;

	dh_helper_init(&h, NAME, argc, argv, NULL, usage);
	if (dh_namespace_find(h.control.source, &decl, &ns, err,
	                      sizeof(err)) < 0)
		ohshit("%s", err);
	status = dh_relocate(&h, &decl, &ns, "links.json");
	declaration_free(&decl);
	dh_helper_done(&h);
	return status;
}
