/*
 * dh_extras_clean: remove what the extras sequence made during the build
 * that dh_clean does not know: the debian/NAME links (run by dh before
 * dh_clean).
 */
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "dh/dh-helper.h"
#include "dh/dh-pkgdirs.h"

#include "dh_extras_clean.usage.h"

#define NAME "dh_extras_clean"

int
main(int argc, char **argv)
{
	struct dh_helper h;
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	for (i = 0; i < h.control.count; i++) {
		const char *package = h.control.packages[i].name;
		struct dpkg_error err = DPKG_ERROR_INIT;
		int removed;

		if (!h.act[i])
			continue;
		removed = dh_pkgdir_unlink("debian", package, h.no_act, &err);
		if (removed < 0)
			ohshit("%s", err.str);
		if (removed > 0)
			dh_helper_show(&h, "rm -f debian/%s",
			               dh_pkgdir_old_name(package));
	}
	dh_helper_done(&h);
	return 0;
}
