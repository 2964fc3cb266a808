/*
 * dh_extras_pkgdirs: debian/NAME becomes a link to the renamed package's
 * debian/extras-NAME for the build (run by dh after dh_prep).
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "dh/dh-helper.h"
#include "dh/dh-pkgdirs.h"

#include "dh_extras_pkgdirs.usage.h"

#define NAME "dh_extras_pkgdirs"

int
main(int argc, char **argv)
{
	struct dh_helper h;
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	for (i = 0; i < h.control.count; i++) {
		const char *package = h.control.packages[i].name;
		struct dpkg_error err = DPKG_ERROR_INIT;
		int made;

		if (!h.act[i])
			continue;
		made = dh_pkgdir_link("debian", package, h.no_act, &err);
		if (made < 0)
			ohshit("%s", err.str);
		if (made > 0)
			dh_helper_show(&h, "ln -s %s debian/%s", package,
			               dh_pkgdir_old_name(package));
	}
	dh_helper_done(&h);
	return 0;
}
