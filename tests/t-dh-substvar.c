/* Facts about adding to a package's substvars. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/program.h>

#include "../tests/tap.h"
#include "dh/dh-substvar.h"

static char buf[4096];

static const char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	size_t n = fp ? fread(buf, 1, sizeof(buf) - 1, fp) : 0;

	if (fp)
		fclose(fp);
	buf[n] = '\0';
	return buf;
}

static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
}

/* Add ITEM to VAR of package p, which cannot fail here. */
static int
add(const struct dh_helper *h, const char *var, const char *item)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	int ret = dh_helper_addsubstvar(h, "p", var, item, &err);

	dpkg_error_destroy(&err);
	return ret;
}

int
main(void)
{
	char tmpl[] = "/tmp/t-dh-substvar.XXXXXX";
	struct dh_helper h = { .name = "t-dh-substvar" };
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *f = "debian/p.substvars";
	struct stat st;

	test_plan(18);
	/* atomic_file registers its cleanups in libdpkg's error context. */
	dpkg_program_init("t-dh-substvar");
	if (mkdtemp(tmpl) == NULL || chdir(tmpl) < 0 || mkdir("debian", 0755))
		return 99;

	test_int(add(&h, "misc:Depends", "apparmor (>= 3.0)"), ==, 0);
	test_str(slurp(f), ==, "misc:Depends=apparmor (>= 3.0)\n");
	test_int(add(&h, "misc:Depends", "apparmor (>= 3.0)"), ==, 0);
	test_str(slurp(f), ==, "misc:Depends=apparmor (>= 3.0)\n");

	put(f, "shlibs:Depends=libc6\nmisc:Depends=foo,  bar \nmisc:Pre-Depends=\n");
	test_int(add(&h, "misc:Depends", "apparmor"), ==, 0);
	test_str(slurp(f), ==, "shlibs:Depends=libc6\n"
	         "misc:Depends=foo,  bar , apparmor\nmisc:Pre-Depends=\n");
	test_int(add(&h, "misc:Depends", "bar"), ==, 0);
	test_str(slurp(f), ==, "shlibs:Depends=libc6\n"
	         "misc:Depends=foo,  bar , apparmor\nmisc:Pre-Depends=\n");
	test_int(add(&h, "misc:Pre-Depends", "x"), ==, 0);
	test_str(slurp(f), ==, "shlibs:Depends=libc6\n"
	         "misc:Depends=foo,  bar , apparmor\nmisc:Pre-Depends=x\n");

	/* An old file that cannot be read: an error for the command to
	 * report, the file as it was and no new one beside it. */
	if (mkdir("debian/q.substvars", 0755) < 0)
		return 99;
	test_int(dh_helper_addsubstvar(&h, "q", "misc:Depends", "x", &err),
	         ==, -1);
	test_str(err.str, ==, "debian/q.substvars: cannot read: Is a directory");
	test_ok(stat("debian/q.substvars", &st) == 0 && S_ISDIR(st.st_mode));
	test_ok(access("debian/q.substvars-new", F_OK) < 0);
	dpkg_error_destroy(&err);

	/* A new file that cannot be made: an error returned, not an exit
	 * from libdpkg, and the old file as it was. */
	put("debian/r.substvars", "misc:Depends=a\n");
	if (mkdir("debian/r.substvars-new", 0755) < 0)
		return 99;
	test_int(dh_helper_addsubstvar(&h, "r", "misc:Depends", "x", &err),
	         ==, -1);
	test_str(err.str, ==, "unable to create new file "
	         "'debian/r.substvars-new': Is a directory");
	test_str(slurp("debian/r.substvars"), ==, "misc:Depends=a\n");
	test_ok(stat("debian/r.substvars-new", &st) == 0 &&
	        S_ISDIR(st.st_mode));
	dpkg_error_destroy(&err);

	if (system("rm -rf -- \"$PWD\"") != 0)
		return 99;
	return test_done();
}
