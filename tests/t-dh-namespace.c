/* Facts about finding the namespace of the source being built. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "dh/dh-namespace.h"

static void
declare(const char *text)
{
	FILE *fp = fopen(DH_DECLARATION, "w");

	fputs(text, fp);
	fclose(fp);
}

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char tmpl[] = "/tmp/t-dh-namespace.XXXXXX";
	struct extras_namespace ns;
	struct declaration d;

	test_plan(11);
	if (mkdtemp(tmpl) == NULL || chdir(tmpl) < 0 || mkdir("debian", 0755))
		return 99;

	test_int(dh_namespace_find("extras-hello", &d, &ns, &err),
	         ==, 0);
	test_str(ns.path, ==, "/opt/extras.ubuntu.com/hello");
	declaration_free(&d);
	test_int(dh_namespace_find("Bad", &d, &ns, &err), ==, -1);
	test_ok(strncmp(err.str, "debian/control: app id 'Bad' ", 29) == 0);
	dpkg_error_destroy(&err);
	declaration_free(&d);

	declare("app: hush\nroot: /opt/extras-test\nprivileges: [x11]\n");
	test_int(dh_namespace_find("extras-hello", &d, &ns, &err),
	         ==, 0);
	test_str(ns.path, ==, "/opt/extras-test/hush");
	test_int(d.n_privileges, ==, 1);
	declaration_free(&d);

	declare("privileges: []\nroot: /tmp/x\n");
	test_int(dh_namespace_find("extras-hello", &d, &ns, &err),
	         ==, -1);
	test_ok(strncmp(err.str, "debian/extras.yaml:2: root '/tmp/x' ",
	                36) == 0);
	dpkg_error_destroy(&err);
	declaration_free(&d);

	declare("colour: blue\n");
	test_int(dh_namespace_find("extras-hello", &d, &ns, &err),
	         ==, -1);
	test_ok(strncmp(err.str, "debian/extras.yaml:1: ", 22) == 0);
	dpkg_error_destroy(&err);
	declaration_free(&d);

	if (system("rm -rf -- \"$PWD\"") != 0)
		return 99;
	return test_done();
}
