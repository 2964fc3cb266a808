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

int
main(void)
{
	char tmpl[] = "/tmp/t-dh-substvar.XXXXXX";
	struct dh_helper h = { .name = "t-dh-substvar" };
	const char *f = "debian/p.substvars";

	test_plan(5);
	/* atomic_file registers its cleanups in libdpkg's error context. */
	dpkg_program_init("t-dh-substvar");
	if (mkdtemp(tmpl) == NULL || chdir(tmpl) < 0 || mkdir("debian", 0755))
		return 99;

	dh_helper_addsubstvar(&h, "p", "misc:Depends", "apparmor (>= 3.0)");
	test_str(slurp(f), ==, "misc:Depends=apparmor (>= 3.0)\n");
	dh_helper_addsubstvar(&h, "p", "misc:Depends", "apparmor (>= 3.0)");
	test_str(slurp(f), ==, "misc:Depends=apparmor (>= 3.0)\n");

	put(f, "shlibs:Depends=libc6\nmisc:Depends=foo,  bar \nmisc:Pre-Depends=\n");
	dh_helper_addsubstvar(&h, "p", "misc:Depends", "apparmor");
	test_str(slurp(f), ==, "shlibs:Depends=libc6\n"
	         "misc:Depends=foo,  bar , apparmor\nmisc:Pre-Depends=\n");
	dh_helper_addsubstvar(&h, "p", "misc:Depends", "bar");
	test_str(slurp(f), ==, "shlibs:Depends=libc6\n"
	         "misc:Depends=foo,  bar , apparmor\nmisc:Pre-Depends=\n");
	dh_helper_addsubstvar(&h, "p", "misc:Pre-Depends", "x");
	test_str(slurp(f), ==, "shlibs:Depends=libc6\n"
	         "misc:Depends=foo,  bar , apparmor\nmisc:Pre-Depends=x\n");

	if (system("rm -rf -- \"$PWD\"") != 0)
		return 99;
	return test_done();
}
