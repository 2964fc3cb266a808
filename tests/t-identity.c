/* Facts about the identity the store decides once, and export names. */
#include "../tests/tap.h"
#include "namespace/identity.h"

static char owners[256];

static void
collect(void *ctx, const char *app)
{
	(void)ctx;
	strcat(owners, owners[0] ? " " : "");
	strcat(owners, app);
}

static const char *
space_owners(const char *name)
{
	owners[0] = '\0';
	identity_space_owners(name, collect, NULL);
	return owners;
}

static const char good[] =
	"App: foo\nSource: extras-foo\nVersion: 1:1.0-1\nUploader: alice\n"
	"Packages: extras-foo-data,\n extras-foo, extras-foo\n";

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct identity id;
	char *s;

	test_plan(32);

	test_ok(identity_in_space("foo", "foo"));
	test_ok(identity_in_space("foo", "foo.desktop"));
	test_ok(identity_in_space("foo", "foo-bar.desktop"));
	test_ok(!identity_in_space("foo", "foobar.desktop"));
	test_ok(!identity_in_space("foo", "fo"));
	test_ok(!identity_in_space("foo", "foo+x.desktop"));
	test_ok(!identity_in_space("foo-bar", "foo.desktop"));

	test_str(space_owners("foo-bar.desktop"), ==,
	         "foo foo-bar foo-bar.desktop");
	test_str(space_owners("org.gnome.Calc.desktop"), ==, "org org.gnome");
	test_str(space_owners("x.png"), ==, "x.png");
	test_str(space_owners("a-b"), ==, "a-b");

	s = identity_renamed("foo");
	test_str(s, ==, "extras-foo");
	free(s);
	s = identity_renamed("extras-foo");
	test_str(s, ==, "extras-foo");
	free(s);

	test_ok(identity_check_package("foo-data") == NULL);
	test_ok(identity_check_package("libfoo2.0+x") == NULL);
	test_ok(identity_check_package("Foo") != NULL);
	test_ok(identity_check_package("foo_bar") != NULL);
	test_ok(identity_check_package("-foo") != NULL);
	test_ok(identity_check_package("f") != NULL);

	test_int(identity_parse(&id, "x.id", good, strlen(good), &err), ==, 0);
	test_str(id.app, ==, "foo");
	test_str(id.source, ==, "extras-foo");
	test_str(id.version, ==, "1:1.0-1");
	test_str(id.uploader, ==, "alice");
	/* Sorted, each once. */
	test_int(id.npackages, ==, 2);
	test_str(id.packages[0], ==, "extras-foo");
	test_str(id.packages[1], ==, "extras-foo-data");
	test_ok(identity_has_package(&id, "extras-foo-data"));
	test_ok(!identity_has_package(&id, "extras-bar"));
	identity_free(&id);

	test_int(identity_parse(&id, "x.id", "App: foo\n", 9, &err), ==, -1);
	test_str(err.str, ==, "x.id:1: field Source is missing");
	dpkg_error_destroy(&err);
	test_int(identity_parse(&id, "x.id", "\n", 1, &err), ==, -1);
	dpkg_error_destroy(&err);

	return test_done();
}
