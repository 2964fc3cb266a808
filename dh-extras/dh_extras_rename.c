/*
 * dh_extras_rename: each binary package takes its extras name in its
 * generated DEBIAN/control and in debian/files, once dh_gencontrol has
 * written them; the maintainer's build ran under the names debian/control
 * gives (run by dh after dh_gencontrol).
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "dh/dh-helper.h"
#include "dh/dh-rename.h"

#include "dh_extras_rename.usage.h"

#define NAME "dh_extras_rename"

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct dpkg_error err = DPKG_ERROR_INIT;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_rename(&h, &err) < 0)
		ohshit("%s", err.str);
	dh_helper_done(&h);
	return 0;
}
