/*
 * dh-packages.h: the binary packages of debian/control, as debhelper
 * sees them: which build on this architecture and build profile.
 */
#ifndef DH_EXTRAS_DH_PACKAGES_H
#define DH_EXTRAS_DH_PACKAGES_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

struct dh_package {
	char *name;
	char *architecture;	/* as written: "any", "all", "linux-any" */
	bool arch_all;		/* Architecture: all */
	bool builds;		/* for the host architecture and profiles */
};

struct dh_control {
	char *source;
	struct dh_package *packages;
	size_t count;
};

/*
 * Read debian/control (PATH) into C.  Returns 0, or -1 with a one-line
 * "PATH:LINE: message" in ERR.
 */
int dh_control_read(struct dh_control *c, const char *path,
                    struct dpkg_error *err);
void dh_control_free(struct dh_control *c);

/*
 * Whether the Build-Profiles restriction FORMULA ("<!nocheck> <cross>")
 * holds for the profiles in $DEB_BUILD_PROFILES.
 */
bool dh_build_profiles_match(const char *formula);

#endif
