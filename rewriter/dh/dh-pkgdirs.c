/*
 * dh-pkgdirs.c: debian/NAME as a link to the renamed extras-NAME.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/error.h>

#include "dh/dh-pkgdirs.h"

#define EXTRAS_PREFIX "extras-"

/* Names debian/ already uses for something of its own. */
static const char *const reserved_names[] = {
	"tmp", "source", "patches", "tests", "upstream", "po", "missing-sources",
	NULL,
};

const char *
dh_pkgdir_old_name(const char *package)
{
	const char *old;
	size_t i;

	if (strncmp(package, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) != 0)
		return NULL;
	old = package + strlen(EXTRAS_PREFIX);
	if (*old == '\0')
		return NULL;
	for (i = 0; reserved_names[i]; i++)
		if (strcmp(old, reserved_names[i]) == 0)
			return NULL;
	return old;
}

/* Whether PATH is a link whose target is exactly TARGET. */
static bool
is_link_to(const char *path, const char *target)
{
	char buf[256];
	ssize_t n = readlink(path, buf, sizeof(buf));

	return n >= 0 && (size_t)n == strlen(target) &&
	       memcmp(buf, target, (size_t)n) == 0;
}

int
dh_pkgdir_link(const char *debian_dir, const char *package, bool no_act,
               struct dpkg_error *err)
{
	const char *old = dh_pkgdir_old_name(package);
	char link_path[4096], staging[4096];
	struct stat st;

	if (!old)
		return 0;
	snprintf(link_path, sizeof(link_path), "%s/%s", debian_dir, old);
	snprintf(staging, sizeof(staging), "%s/%s", debian_dir, package);
	if (lstat(link_path, &st) == 0) {
		if (S_ISLNK(st.st_mode) && is_link_to(link_path, package))
			return 0;
		return dpkg_put_error(err, "%s exists and is not a link to %s: "
		                      "nothing would package what the build puts "
		                      "there; remove it, or name it %s", link_path,
		                      package, staging);
		return -1;
	}
	if (errno != ENOENT) {
		return dpkg_put_error(err, "cannot stat %s: %s", link_path,
		                      strerror(errno));
	}
	if (no_act)
		return 1;
	if (mkdir(staging, 0755) < 0 && errno != EEXIST) {
		return dpkg_put_error(err, "cannot create %s: %s", staging,
		                      strerror(errno));
	}
	if (symlink(package, link_path) < 0) {
		return dpkg_put_error(err, "cannot link %s to %s: %s",
		                      link_path, package, strerror(errno));
	}
	return 1;
}

int
dh_pkgdir_unlink(const char *debian_dir, const char *package, bool no_act,
                 struct dpkg_error *err)
{
	const char *old = dh_pkgdir_old_name(package);
	char link_path[4096];
	struct stat st;

	if (!old)
		return 0;
	snprintf(link_path, sizeof(link_path), "%s/%s", debian_dir, old);
	if (lstat(link_path, &st) < 0 || !S_ISLNK(st.st_mode) ||
	    !is_link_to(link_path, package))
		return 0;
	if (no_act)
		return 1;
	if (unlink(link_path) < 0) {
		return dpkg_put_error(err, "cannot remove %s: %s", link_path,
		                      strerror(errno));
	}
	return 1;
}
