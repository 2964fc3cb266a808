/* Facts about the unpatched: key of debian/extras.yaml. */
#include <string.h>

#include "../tests/tap.h"
#include "namespace/declaration.h"

static struct dpkg_error err = DPKG_ERROR_INIT;

static int
load(struct declaration *d, const char *text)
{
	dpkg_error_destroy(&err);
	return declaration_load_buffer(d, "debian/extras.yaml", text,
	                               strlen(text), &err);
}

int
main(void)
{
	struct declaration d;

	test_plan(19);

	test_ok(declaration_check_unpatched_path("/opt/x/a/bin/a") == NULL);
	test_ok(declaration_check_unpatched_path("/opt/x/a/share/") == NULL);
	test_ok(declaration_check_unpatched_path("opt/x") != NULL);
	test_ok(declaration_check_unpatched_path("/opt/x/../etc") != NULL);
	test_ok(declaration_check_unpatched_path("/opt/x/..") != NULL);
	test_ok(declaration_check_unpatched_path("/opt//x") != NULL);
	test_ok(declaration_check_unpatched_path("/opt/a b") != NULL);
	/* "FILE STRING": one blank between two clean absolute paths. */
	test_ok(declaration_check_unpatched_path("/opt/x/a/bin/a /usr/share/a") == NULL);
	test_ok(declaration_check_unpatched_path("/opt/x/a/ /usr/share/a") == NULL);
	test_ok(declaration_check_unpatched_path("/opt/a  /usr/share/a") != NULL);
	test_ok(declaration_check_unpatched_path("/opt/a usr/share/a") != NULL);
	test_ok(declaration_check_unpatched_path("/opt/a /usr/../a") != NULL);
	test_ok(declaration_check_unpatched_path("/opt/a /usr/a b") != NULL);

	test_int(load(&d, "unpatched:\n  - /opt/x/a/bin/a\n  - /opt/x/a/lib/\n"),
	         ==, 0);
	test_int(d.n_unpatched, ==, 2);
	test_str(d.unpatched[1].value, ==, "/opt/x/a/lib/");
	declaration_free(&d);

	test_int(load(&d, "unpatched:\n  - /a/b\n  - /a/b\n"), ==, -1);
	test_str(err.str, ==, "debian/extras.yaml:3: duplicate path '/a/b' "
	         "(first on line 2)");
	declaration_free(&d);

	load(&d, "unpatched: /a/b\n");
	test_str(err.str, ==, "debian/extras.yaml:1: 'unpatched' must be a list of "
	         "strings, not a string");
	declaration_free(&d);
	dpkg_error_destroy(&err);
	return test_done();
}
