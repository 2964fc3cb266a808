/*
 * dh_extras_privlibs: the namespace's libraries are private to the app.
 * dh_makeshlibs describes them in DEBIAN/shlibs and DEBIAN/symbols so that
 * dh_shlibdeps computes the dependencies between the source's own packages
 * (jq on libjq1); once that is done, those files would offer the libraries
 * to every other package: remove them (run by dh after dh_shlibdeps).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "dh/dh-helper.h"

#define NAME "dh_extras_privlibs"

static const char usage[] =
	"Usage: " NAME " [debhelper options]\n"
	"\n"
	"Remove DEBIAN/shlibs and DEBIAN/symbols of every package once\n"
	"dh_shlibdeps has used them: the namespace's libraries serve only\n"
	"the app's own packages.\n"
	"\n"
	"  -p PKG, -N PKG, -a, -i, -v, --no-act, -O OPT\n"
	"                     as for every debhelper command\n";

int
main(int argc, char **argv)
{
	static const char *const files[] = { "shlibs", "symbols" };
	struct dh_helper h;
	size_t i, f;

	dh_helper_init(&h, NAME, argc, argv, NULL, usage);
	for (i = 0; i < h.control.count; i++) {
		const char *package = h.control.packages[i].name;

		if (!h.act[i])
			continue;
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			char path[4096];

			snprintf(path, sizeof(path), "debian/%s/DEBIAN/%s",
			         package, files[f]);
			if (access(path, F_OK) < 0)
				continue;
			dh_helper_show(&h, "rm -f %s", path);
			if (!h.no_act && unlink(path) < 0)
				ohshite("cannot remove %s", path);
			dh_helper_info(&h, "%s: the namespace's libraries are "
			               "private to the app: no %s", package,
			               files[f]);
		}
	}
	dh_helper_done(&h);
	return 0;
}
