/* Facts about debian/NAME as a link to the renamed debian/extras-NAME. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/error.h>

#include "../tests/tap.h"
#include "dh/dh-pkgdirs.h"

static char target[256];

static const char *
link_target(const char *path)
{
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	target[n < 0 ? 0 : n] = '\0';
	return target;
}

int
main(void)
{
	char debian[] = "/tmp/t-dh-pkgdirs.XXXXXX";
	char path[512];
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct stat st;

	test_plan(20);

	test_str(dh_pkgdir_old_name("extras-hello"), ==, "hello");
	test_str(dh_pkgdir_old_name("extras-hello-data"), ==, "hello-data");
	test_ok(dh_pkgdir_old_name("hello") == NULL);
	test_ok(dh_pkgdir_old_name("extras-") == NULL);
	test_ok(dh_pkgdir_old_name("extras-tmp") == NULL);
	test_ok(dh_pkgdir_old_name("extras-source") == NULL);
	test_ok(dh_pkgdir_old_name("extras-tests") == NULL);

	if (mkdtemp(debian) == NULL)
		return 1;

	/* Made once, kept the second time, the staging directory created. */
	test_int(dh_pkgdir_link(debian, "extras-hello", false, &err), ==, 1);
	snprintf(path, sizeof(path), "%s/hello", debian);
	test_str(link_target(path), ==, "extras-hello");
	snprintf(path, sizeof(path), "%s/extras-hello", debian);
	test_ok(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
	test_int(dh_pkgdir_link(debian, "extras-hello", false, &err), ==, 0);

	/* --no-act makes nothing. */
	test_int(dh_pkgdir_link(debian, "extras-bye", true, &err), ==, 1);
	snprintf(path, sizeof(path), "%s/bye", debian);
	test_ok(lstat(path, &st) < 0);

	/* A real directory of the old name is packaged by nothing. */
	snprintf(path, sizeof(path), "%s/real", debian);
	mkdir(path, 0755);
	test_int(dh_pkgdir_link(debian, "extras-real", false, &err), ==, -1);
	test_ok(err.str && strstr(err.str, "/real exists and is not a link to "
	                          "extras-real") != NULL);
	dpkg_error_destroy(&err);

	/* Removal takes the link and nothing else. */
	test_int(dh_pkgdir_unlink(debian, "extras-hello", false, &err), ==, 1);
	snprintf(path, sizeof(path), "%s/hello", debian);
	test_ok(lstat(path, &st) < 0);
	test_int(dh_pkgdir_unlink(debian, "extras-hello", false, &err), ==, 0);
	test_int(dh_pkgdir_unlink(debian, "extras-real", false, &err), ==, 0);
	snprintf(path, sizeof(path), "%s/real", debian);
	test_ok(stat(path, &st) == 0 && S_ISDIR(st.st_mode));

	snprintf(path, sizeof(path), "rm -rf '%s'", debian);
	return system(path) == 0 ? 0 : 1;
}
