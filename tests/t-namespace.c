/* Facts about the app id, the root and the namespace. */
#include "../tests/tap.h"
#include "namespace/namespace.h"

int
main(void)
{
	struct extras_namespace ns;

	test_plan(29);

	test_ok(namespace_check_app("hello") == NULL);
	test_ok(namespace_check_app("gnome-2048") == NULL);
	test_ok(namespace_check_app("libfoo2.0+x") == NULL);
	test_ok(namespace_check_app("0ad") == NULL);
	test_ok(namespace_check_app("") != NULL);
	test_ok(namespace_check_app("Hello") != NULL);
	test_ok(namespace_check_app("a") != NULL);
	test_ok(namespace_check_app("foo,bar") != NULL);
	test_ok(namespace_check_app("foo bar") != NULL);
	test_ok(namespace_check_app("foo/bar") != NULL);
	test_ok(namespace_check_app("foo..bar") != NULL);
	test_ok(namespace_check_app("foo*") != NULL);
	test_ok(namespace_check_app("-foo") != NULL);
	test_ok(namespace_check_app("extras-foo") != NULL);
	test_ok(namespace_check_app(
		"ab123456789012345678901234567890123456789012345678901234567890123")
		!= NULL);

	test_ok(namespace_check_root("/opt/extras.ubuntu.com") == NULL);
	test_ok(namespace_check_root("/usr") == NULL);
	test_ok(namespace_check_root("/") != NULL);
	test_ok(namespace_check_root("opt/x") != NULL);
	test_ok(namespace_check_root("/opt/x/") != NULL);
	test_ok(namespace_check_root("/opt//x") != NULL);
	test_ok(namespace_check_root("/opt/../etc") != NULL);
	test_ok(namespace_check_root("/opt/x,y") != NULL);
	test_ok(namespace_check_root("/tmp/x") != NULL);

	test_ok(namespace_init(&ns, "hello", NULL) == NULL);
	test_str(ns.path, ==, "/opt/extras.ubuntu.com/hello");
	test_ok(namespace_init(&ns, ns.app, ns.root) == NULL);
	test_str(ns.path, ==, "/opt/extras.ubuntu.com/hello");
	test_str(namespace_app_of_package("extras-hello"), ==, "hello");

	return test_done();
}
