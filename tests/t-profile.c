/* Facts about the words a profile accepts and how it is assembled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "namespace/declaration.h"
#include "namespace/namespace.h"
#include "apparmor/profile.h"

static char dir[] = "/tmp/t-profile.XXXXXX";
static struct dpkg_error err = DPKG_ERROR_INIT;

static void
write_file(const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (fp == NULL)
		abort();
	fputs(text, fp);
	fclose(fp);
}

/* Generate for APP declaring PRIVS from the templates in DIR. */
static char *
generate_app(const char *app, const char *yaml, bool allow_reserved)
{
	struct extras_namespace ns;
	struct declaration d;
	struct profile_request r = { 0 };
	char *text;
	size_t len;

	dpkg_error_destroy(&err);
	if (namespace_init(&ns, app, NULL) != NULL)
		abort();
	if (declaration_load_buffer(&d, "d.yaml", yaml, strlen(yaml),
	                            &err) < 0)
		return NULL;
	r.ns = &ns;
	r.declaration = &d;
	r.allow_reserved = allow_reserved;
	r.templates = dir;
	if (profile_generate(&r, &text, &len, &err) < 0)
		text = NULL;
	declaration_free(&d);
	return text;
}

static char *
generate(const char *yaml, bool allow_reserved)
{
	return generate_app("hello", yaml, allow_reserved);
}

static const struct {
	const char *word;
	const char *why;
} words[] = {
	{ "/opt/extras.ubuntu.com/hello", NULL },
	{ "libfoo2.0+x_y-z", NULL },
	{ "", "is empty" },
	{ "a\nb", "contains a newline" },
	{ "a\rb", "contains a newline" },
	{ "a,b", "contains a comma" },
	{ "a{b", "contains a brace" },
	{ "a}b", "contains a brace" },
	{ "a\"b", "contains a quote" },
	{ "a'b", "contains a quote" },
	{ "a#b", "contains '#'" },
	{ "@{HOME}", "contains '@'" },
	{ "a*", "contains a glob character" },
	{ "a?", "contains a glob character" },
	{ "[ab]", "contains a glob character" },
	{ "^hat", "contains a glob character" },
	{ "a b", "contains white space" },
	{ "a\tb", "contains white space" },
	{ "a/../b", "contains '..'" },
	{ "a\\b", "contains a character other than letters, digits, '/', '.', "
	          "'_', '+' and '-'" },
	{ "caf\xc3\xa9", "contains a character other than letters, digits, "
	                 "'/', '.', '_', '+' and '-'" },
	{ "a=b", "contains a character other than letters, digits, '/', '.', "
	         "'_', '+' and '-'" },
};

#define N_WORDS (sizeof(words) / sizeof(words[0]))

static void
test_words(void)
{
	struct extras_namespace ns;
	char name[PROFILE_NAME_MAX + 1], longword[300];
	size_t i;

	for (i = 0; i < N_WORDS; i++) {
		const char *got = profile_check_word(words[i].word);
		int pass = (got == NULL && words[i].why == NULL) ||
		           (got && words[i].why && strcmp(got, words[i].why) == 0);

		char what[64];

		/* The word itself may hold a newline: name it by number. */
		snprintf(what, sizeof(what), "profile_check_word(words[%zu])", i);
		if (!tap_result(pass, __FILE__, __LINE__, what))
			printf("#   got \"%s\"\n", got ? got : "(null)");
	}
	memset(longword, 'a', 257);
	longword[257] = '\0';
	test_str(profile_check_word(longword), ==, "is longer than 256 bytes");

	namespace_init(&ns, "hello", NULL);
	test_int(profile_name(&ns, name, sizeof(name)), ==, 0);
	test_str(name, ==, "opt.extras.ubuntu.com.hello");
	test_int(profile_name(&ns, name, 5), ==, -1);
	test_ok(profile_check_executable(&ns,
	        "/opt/extras.ubuntu.com/hello/bin/hello") == NULL);
	test_str(profile_check_executable(&ns,
	         "/opt/extras.ubuntu.com/hello2/bin/x"), ==,
	         "is not in the namespace");
	test_str(profile_check_executable(&ns, "/opt/extras.ubuntu.com/hello"),
	         ==, "is not in the namespace");
	test_str(profile_check_executable(&ns,
	         "/opt/extras.ubuntu.com/hello/bin//x"), ==,
	         "contains an empty component");
	test_str(profile_check_executable(&ns,
	         "/opt/extras.ubuntu.com/hello/bin/"), ==, "ends with '/'");
	test_str(profile_check_executable(&ns,
	         "/opt/extras.ubuntu.com/hello/bin/x,y"), ==,
	         "contains a comma");
}

#define SKELETON \
	"# Template: a test skeleton.\n" \
	"\n" \
	"profile @NAME@ @NAMESPACE@/** {\n" \
	"  @NAMESPACE@/** mr,\n" \
	"@PRIVILEGES@\n" \
	"}\n"

static void
test_assembly(void)
{
	char *text;

	if (mkdtemp(dir) == NULL)
		abort();
	text = generate("privileges: []\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "/profile.apparmor: no such template") != NULL);

	{
		char path[256];

		snprintf(path, sizeof(path), "%s/apparmor", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/apparmor/privileges", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/identity", dir);
		mkdir(path, 0755);
	}
	write_file("apparmor/profile.apparmor", SKELETON);
	write_file("apparmor/privileges/a.apparmor",
	           "# Privilege: a\n# Class: common\n# Grants: a, and\n"
	           "#  more a.\n  /a r,\n  /shared r,\n");
	write_file("apparmor/privileges/b.apparmor",
	           "# Privilege: b\n# Class: reserved\n# Grants: b.\n"
	           "  /shared r,\n  /b/@APP@ r,\n");

	/* The reserved ids: without their list, no profile. */
	text = generate("privileges: []\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "/identity/reserved-apps: cannot open") != NULL);
	write_file("identity/reserved-apps",
	           "# Comment.\nconfig   the XDG configuration directory "
	           "(~/.config)\nssh\tOpenSSH's keys (~/.ssh)\nbare\n");
	text = generate_app("config", "privileges: []\n", false);
	test_ok(text == NULL);
	test_str(err.str, ==, "app id 'config' is reserved: the name holds "
	         "the XDG configuration directory (~/.config), which its "
	         "profile would reach; choose another app id "
	         "(templates/identity/reserved-apps)");
	text = generate_app("ssh", "privileges: []\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "holds OpenSSH's keys (~/.ssh), ") != NULL);
	text = generate_app("bare", "privileges: []\n", false);
	test_ok(strstr(err.str, "holds another program's files,") != NULL);
	/* Whole ids only. */
	text = generate_app("con", "privileges: []\n", false);
	test_ok(text != NULL);
	free(text);
	text = generate_app("configs", "privileges: []\n", false);
	test_ok(text != NULL);
	free(text);

	text = generate("privileges: [b, a]\n", true);
	test_str(text, ==,
	         "profile opt.extras.ubuntu.com.hello "
	         "/opt/extras.ubuntu.com/hello/** {\n"
	         "  /opt/extras.ubuntu.com/hello/** mr,\n"
	         "  # Privilege a (common).\n"
	         "  /a r,\n"
	         "  /shared r,\n"
	         "\n"
	         "  # Privilege b (reserved).\n"
	         "  /b/hello r,\n"
	         "}\n");
	free(text);

	text = generate("privileges: [b]\n", false);
	test_ok(text == NULL);
	test_str(err.str, ==, "d.yaml:1: privilege 'b' is reserved and not "
	         "allowed here");
	text = generate("privileges: [a, c]\n", false);
	test_ok(text == NULL);
	test_str(err.str, ==, "d.yaml:1: unknown privilege 'c'");

	/* A privilege file is data we ship, but checked all the same. */
	write_file("apparmor/privileges/c.apparmor",
	           "# Privilege: c\n# Class: common\n# Grants: c.\n"
	           "  /c r,\n}\nprofile evil /** {\n");
	text = generate("privileges: [c]\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "privileges/c.apparmor:5: not one whole rule "
	               "on a line") != NULL);
	write_file("apparmor/privileges/c.apparmor",
	           "# Privilege: c\n# Class: common\n# Grants: c.\n"
	           "  /c/@HOLE@ r,\n");
	text = generate("privileges: [c]\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "privileges/c.apparmor:4: unknown placeholder "
	               "@HOLE@") != NULL);
	write_file("apparmor/privileges/c.apparmor",
	           "# Privilege: c\n# Class: sometimes\n# Grants: c.\n");
	text = generate("privileges: [c]\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "header field Class is not") != NULL);
	write_file("apparmor/privileges/c.apparmor",
	           "# Privilege: d\n# Class: common\n# Grants: c.\n");
	text = generate("privileges: [c]\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "header field Privilege is not 'c'") != NULL);
	write_file("apparmor/privileges/c.apparmor",
	           "# Privilege: c\n# Class: common\n");
	text = generate("privileges: [c]\n", false);
	test_ok(text == NULL);
	test_ok(strstr(err.str, "header field Grants is missing") != NULL);
}

static void
test_catalogue(void)
{
	struct profile_privilege *list;
	size_t n;
	char path[256];

	snprintf(path, sizeof(path), "%s/apparmor/privileges/c.apparmor", dir);
	unlink(path);
	test_int(profile_privileges(dir, &list, &n, &err), ==, 0);
	test_int(n, ==, 2);
	test_str(list[0].name, ==, "a");
	test_ok(!list[0].reserved);
	test_str(list[0].grants, ==, "a, and more a.");
	test_str(list[1].name, ==, "b");
	test_ok(list[1].reserved);
	profile_privileges_free(list, n);

	snprintf(path, sizeof(path), "rm -rf -- %s", dir);
	if (system(path) != 0)
		abort();
}

/* The real catalogue's names, as extras-convert suggests them. */
static void
test_nearest(void)
{
	struct profile_privilege list[] = {
		{ .name = (char *)"audio" }, { .name = (char *)"network" },
		{ .name = (char *)"print" }, { .name = (char *)"x11" },
		{ .name = (char *)"wayland" }, { .name = (char *)"camera" },
	};
	size_t n = sizeof(list) / sizeof(list[0]);

	test_str(profile_privilege_nearest(list, n, "netwrok"), ==, "network");
	test_str(profile_privilege_nearest(list, n, "networks"), ==, "network");
	test_str(profile_privilege_nearest(list, n, "x1"), ==, "x11");
	test_str(profile_privilege_nearest(list, n, "X11"), ==, "x11");
	test_str(profile_privilege_nearest(list, n, "camra"), ==, "camera");
	test_str(profile_privilege_nearest(list, n, "audi0"), ==, "audio");
	test_ok(profile_privilege_nearest(list, n, "teleport") == NULL);
	test_ok(profile_privilege_nearest(list, n, "x") == NULL);
	test_ok(profile_privilege_nearest(list, n, "netbios") == NULL);
	test_ok(profile_privilege_nearest(list, 0, "network") == NULL);
}

int
main(void)
{
	test_plan((int)N_WORDS + 10 + 17 + 9 + 7 + 10);
	test_words();
	test_assembly();
	test_catalogue();
	test_nearest();
	dpkg_error_destroy(&err);
	return test_done();
}
