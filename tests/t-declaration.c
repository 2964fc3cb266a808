/* Facts about loading debian/extras.yaml, and the hostile ones it refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "namespace/declaration.h"

static struct dpkg_error err = DPKG_ERROR_INIT;

/* Load TEXT as "d.yaml"; return the error, or "" when it loaded. */
static const char *
load(const char *text)
{
	struct declaration d;

	dpkg_error_destroy(&err);
	declaration_load_buffer(&d, "d.yaml", text, strlen(text), &err);
	declaration_free(&d);
	return err.str ? err.str : "";
}

/* The same for text with NUL bytes, of length LEN. */
static const char *
load_n(const char *text, size_t len)
{
	struct declaration d;

	dpkg_error_destroy(&err);
	declaration_load_buffer(&d, "d.yaml", text, len, &err);
	declaration_free(&d);
	return err.str ? err.str : "";
}

/* Each hostile declaration and the one line it must be refused with. */
static const struct {
	const char *yaml;
	const char *error;
} hostile[] = {
	{ "app: hello\nfoo: bar\n", "d.yaml:2: unknown key 'foo'" },
	{ "App: hello\n", "d.yaml:1: unknown key 'App'" },
	{ "app: hello\napp: other\n",
	  "d.yaml:2: duplicate key 'app' (first on line 1)" },
	{ "privileges: [x11]\nprivileges: [network]\n",
	  "d.yaml:2: duplicate key 'privileges' (first on line 1)" },
	{ "privileges:\n - x11\n - network\n - x11\n",
	  "d.yaml:4: duplicate privilege 'x11' (first on line 2)" },
	{ "privileges: {x11: yes}\n",
	  "d.yaml:1: 'privileges' must be a list of strings, not a mapping" },
	{ "privileges: x11\n",
	  "d.yaml:1: 'privileges' must be a list of strings, not a string" },
	{ "privileges:\n",
	  "d.yaml:1: 'privileges' must be a list of strings, not a string" },
	{ "privileges:\n - [x11]\n",
	  "d.yaml:2: 'privileges' must be a list of strings, not hold a list" },
	{ "privileges:\n - {x11: 1}\n",
	  "d.yaml:2: 'privileges' must be a list of strings, not hold a mapping" },
	{ "app: [hello]\n", "d.yaml:1: 'app' must be a string, not a list" },
	{ "app:\n  name: hello\n",
	  "d.yaml:2: 'app' must be a string, not a mapping" },
	{ "root: {a: b}\n", "d.yaml:1: 'root' must be a string, not a mapping" },
	{ "- app\n- hello\n",
	  "d.yaml:1: the declaration must be a mapping of keys, not a list" },
	{ "hello\n",
	  "d.yaml:1: the declaration must be a mapping of keys, not a string" },
	{ "? [a, b]\n: c\n", "d.yaml:1: keys must be strings, not a list" },
	{ "app: &a hello\n", "d.yaml:1: anchors are not allowed" },
	{ "privileges: &p [x11]\n", "d.yaml:1: anchors are not allowed" },
	{ "app: hello\nroot: *a\n", "d.yaml:2: aliases are not allowed" },
	{ "app: !!str hello\n", "d.yaml:1: tags are not allowed" },
	{ "privileges: !!seq [x11]\n", "d.yaml:1: tags are not allowed" },
	{ "%YAML 1.1\n---\napp: hello\n",
	  "d.yaml:1: YAML directives are not allowed" },
	{ "%TAG ! tag:example.com,2000:\n---\napp: hello\n",
	  "d.yaml:1: YAML directives are not allowed" },
	{ "app: hello\n---\napp: other\n",
	  "d.yaml:2: more than one YAML document" },
	{ "app: hello\n...\n---\n", "d.yaml:3: more than one YAML document" },
	{ "<<: {app: hello}\n", "d.yaml:1: unknown key '<<'" },
	{ "app: \"hel\\nlo\"\n", "d.yaml:1: app contains a control character" },
	{ "app: \"hel\\tlo\"\n", "d.yaml:1: app contains a control character" },
	{ "app: \"hello\\e\"\n", "d.yaml:1: app contains a control character" },
	{ "app: \"hel\\0lo\"\n", "d.yaml:1: app contains a NUL byte" },
	{ "app: \"caf\\xe9\"\n",
	  "d.yaml:1: app 'caf\xc3\xa9' is not a valid Debian package name" },
	{ "app: hello\nroot: /opt/\xe9t\xe9\n",
	  "d.yaml:2: invalid trailing UTF-8 octet (not UTF-8 text)" },
	{ "app: hello\nroot: /opt/\x80\n",
	  "d.yaml:2: invalid leading UTF-8 octet (not UTF-8 text)" },
	{ "app: Hello\n",
	  "d.yaml:1: app 'Hello' may hold only a-z, 0-9, '-', '+' and '.'" },
	{ "app: hello,world\n",
	  "d.yaml:1: app 'hello,world' is not a valid Debian package name" },
	{ "app: hello}\n",
	  "d.yaml:1: app 'hello}' is not a valid Debian package name" },
	{ "app: 'hel\"lo'\n",
	  "d.yaml:1: app 'hel\"lo' is not a valid Debian package name" },
	{ "app: '@{HOME}'\n",
	  "d.yaml:1: app '@{HOME}' is not a valid Debian package name" },
	{ "app: 'hel*'\n",
	  "d.yaml:1: app 'hel*' is not a valid Debian package name" },
	{ "app: foo..bar\n", "d.yaml:1: app 'foo..bar' contains '..'" },
	{ "app: ''\n", "d.yaml:1: app '' is empty" },
	{ "app: extras-foo\n",
	  "d.yaml:1: app 'extras-foo' must not itself start with 'extras-'" },
	{ "app: a234567890123456789012345678901234567890123456789012345678901234"
	  "5\n",
	  "d.yaml:1: app 'a2345678901234567890123456789012345678901234567890"
	  "123456789012345' is longer than 64 characters" },
	{ "root: opt/x\n", "d.yaml:1: root 'opt/x' is not an absolute path" },
	{ "root: /opt/../etc\n",
	  "d.yaml:1: root '/opt/../etc' has a component starting with '.'" },
	{ "root: /opt/x#y\n",
	  "d.yaml:1: root '/opt/x#y' may hold only letters, digits, '/', '-', "
	  "'_', '.' and '+'" },
	{ "root: '/opt/{a,b}'\n",
	  "d.yaml:1: root '/opt/{a,b}' may hold only letters, digits, '/', '-', "
	  "'_', '.' and '+'" },
	{ "root: /opt/**\n",
	  "d.yaml:1: root '/opt/**' may hold only letters, digits, '/', '-', "
	  "'_', '.' and '+'" },
	{ "root: /tmp/apps\n",
	  "d.yaml:1: root '/tmp/apps' lies in a system directory that cannot "
	  "hold apps" },
	{ "root: /\n", "d.yaml:1: root '/' is the root directory" },
	{ "privileges: [X11]\n",
	  "d.yaml:1: privilege 'X11' may hold only a-z, 0-9 and '-'" },
	{ "privileges: ['x11,']\n",
	  "d.yaml:1: privilege 'x11,' may hold only a-z, 0-9 and '-'" },
	{ "privileges: ['../../../etc/passwd']\n",
	  "d.yaml:1: privilege '../../../etc/passwd' may hold only a-z, 0-9 "
	  "and '-'" },
	{ "privileges: ['']\n", "d.yaml:1: privilege '' is empty" },
	{ "privileges: [-x]\n",
	  "d.yaml:1: privilege '-x' must start with a letter or a digit" },
	{ "privileges: [abcdefghijklmnopqrstuvwxyz0123456]\n",
	  "d.yaml:1: privilege 'abcdefghijklmnopqrstuvwxyz0123456' is longer "
	  "than 32 characters" },
	{ "bus-names: [org]\n",
	  "d.yaml:1: bus name 'org' must have at least two elements "
	  "(org.example.App)" },
	{ "bus-names: [org..x]\n",
	  "d.yaml:1: bus name 'org..x' has an empty element" },
	{ "bus-names: [org.2x]\n",
	  "d.yaml:1: bus name 'org.2x' has an element starting with a digit" },
	{ "bus-names: [':1.42']\n",
	  "d.yaml:1: bus name ':1.42' is a unique name, not a well-known one" },
	{ "bus-names: ['org.x*']\n",
	  "d.yaml:1: bus name 'org.x*' may hold only A-Z, a-z, 0-9, '_', '-' "
	  "and '.'" },
	{ "bus-names: org.example.Demo\n",
	  "d.yaml:1: 'bus-names' must be a list of strings, not a string" },
	{ "bus-names: [a.b, a.b]\n",
	  "d.yaml:1: duplicate bus name 'a.b' (first on line 1)" },
	{ "ids: ['../x']\n", "d.yaml:1: id '../x' has an empty element" },
	{ "ids: ['x/y']\n",
	  "d.yaml:1: id 'x/y' may hold only A-Z, a-z, 0-9, '.', '_' and '-'" },
	{ "ids: ['']\n", "d.yaml:1: id '' is empty" },
	{ "app: \"hello\n",
	  "d.yaml:2: found unexpected end of stream" },
	{ "privileges: [x11\n",
	  "d.yaml:2: did not find expected ',' or ']'" },
	{ "app: hello\n\tprivileges: []\n",
	  "d.yaml:2: found a tab character that violates indentation" },
};

#define N_HOSTILE (sizeof(hostile) / sizeof(hostile[0]))

static void
test_hostile(void)
{
	size_t i;

	for (i = 0; i < N_HOSTILE; i++) {
		const char *got = load(hostile[i].yaml);

		if (!tap_result(strcmp(got, hostile[i].error) == 0, __FILE__,
		                __LINE__, hostile[i].error))
			printf("#   got \"%s\"\n", got);
	}
}

static void
test_overlong(void)
{
	char yaml[DECLARATION_FILE_MAX + 64];
	size_t n;

	/* A value over the limit is refused before any check quotes it. */
	n = (size_t)snprintf(yaml, sizeof(yaml), "app: ");
	memset(yaml + n, 'a', 300);
	strcpy(yaml + n + 300, "\n");
	test_str(load(yaml), ==, "d.yaml:1: app is longer than 256 bytes");

	n = (size_t)snprintf(yaml, sizeof(yaml), "privileges: [");
	memset(yaml + n, 'x', 300);
	strcpy(yaml + n + 300, "]\n");
	test_str(load(yaml), ==, "d.yaml:1: privilege is longer than 256 bytes");

	memset(yaml, 'a', 300);
	strcpy(yaml + 300, ": 1\n");
	test_str(load(yaml), ==, "d.yaml:1: key is longer than 256 bytes");

	/* A file over the limit is refused unread. */
	memset(yaml, '#', sizeof(yaml) - 1);
	test_str(load_n(yaml, DECLARATION_FILE_MAX + 1), ==,
	         "d.yaml: is larger than 65536 bytes");

	/* UTF-16 with a byte order mark is not guessed at. */
	test_str(load_n("\xff\xfe" "a\0p\0p\0:\0 \0x\0\n\0", 16), ==,
	         "d.yaml:1: invalid leading UTF-8 octet (not UTF-8 text)");

	/* More privileges than anyone needs. */
	n = (size_t)snprintf(yaml, sizeof(yaml), "privileges:\n");
	for (int i = 0; i <= DECLARATION_PRIVILEGES_MAX; i++)
		n += (size_t)snprintf(yaml + n, sizeof(yaml) - n, " - p%d\n", i);
	test_str(load(yaml), ==, "d.yaml:66: more than 64 privileges");
}

static void
test_good(void)
{
	struct declaration d;
	const char *yaml =
		"# written by extras-convert\n"
		"app: hello\n"
		"root: /opt/extras.ubuntu.com\n"
		"privileges:\n"
		"  - x11\n"
		"  - \"network\"\n";

	test_int(declaration_load_buffer(&d, "d.yaml", yaml, strlen(yaml),
	                                 &err), ==, 0);
	test_ok(d.present);
	test_str(d.path, ==, "d.yaml");
	test_str(d.app.value, ==, "hello");
	test_int(d.app.line, ==, 2);
	test_str(d.root.value, ==, "/opt/extras.ubuntu.com");
	test_int(d.n_privileges, ==, 2);
	test_str(d.privileges[0].value, ==, "x11");
	test_int(d.privileges[0].line, ==, 5);
	test_str(d.privileges[1].value, ==, "network");
	test_int(d.privileges[1].line, ==, 6);
	test_ok(declaration_has_privilege(&d, "network"));
	test_ok(!declaration_has_privilege(&d, "audio"));
	declaration_free(&d);

	/* Empty forms all declare nothing. */
	test_str(load(""), ==, "");
	test_str(load("# nothing\n"), ==, "");
	test_str(load("---\n"), ==, "");
	test_str(load("---\n...\n"), ==, "");
	test_str(load("{}\n"), ==, "");
	test_str(load("privileges: []\n"), ==, "");
	test_str(load("app: 0ad\nprivileges: [opengl, audio]\n"), ==, "");
	test_str(load("---\napp: hello\n...\n"), ==, "");

	/* The names an app holds beyond its app id. */
	yaml = "bus-names: [org.example.Demo, org.example.Demo.Search]\n"
	       "ids:\n  - org.example.Demo\n  - demo.desktop\n";
	test_int(declaration_load_buffer(&d, "d.yaml", yaml, strlen(yaml),
	                                 &err), ==, 0);
	test_int(d.n_bus_names, ==, 2);
	test_str(d.bus_names[1].value, ==, "org.example.Demo.Search");
	test_int(d.n_ids, ==, 2);
	test_str(d.ids[1].value, ==, "demo.desktop");
	test_int(d.ids[1].line, ==, 4);
	declaration_free(&d);
}

static void
test_files(void)
{
	struct declaration d;
	char dir[] = "/tmp/t-declaration.XXXXXX";
	char path[256], link[256];
	FILE *fp;

	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/extras.yaml", dir);
	snprintf(link, sizeof(link), "%s/link.yaml", dir);

	/* An absent file is an empty declaration. */
	test_int(declaration_load(&d, path, &err), ==, 0);
	test_ok(!d.present);
	test_ok(d.app.value == NULL && d.root.value == NULL);
	test_int(d.n_privileges, ==, 0);
	declaration_free(&d);

	fp = fopen(path, "w");
	fputs("app: hello\nprivileges: [audio]\n", fp);
	fclose(fp);
	test_int(declaration_load(&d, path, &err), ==, 0);
	test_ok(d.present);
	test_str(d.privileges[0].value, ==, "audio");
	declaration_free(&d);

	/* A link could point anywhere; errors would quote what it reads. */
	if (symlink("/etc/passwd", link) < 0)
		abort();
	test_int(declaration_load(&d, link, &err), ==, -1);
	test_ok(strstr(err.str, "link.yaml: is a symbolic link") != NULL);
	dpkg_error_destroy(&err);
	declaration_free(&d);

	test_int(declaration_load(&d, dir, &err), ==, -1);
	test_ok(strstr(err.str, ": is not a regular file") != NULL);
	dpkg_error_destroy(&err);
	declaration_free(&d);

	unlink(link);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	test_plan((int)N_HOSTILE + 6 + 27 + 11);
	test_hostile();
	test_overlong();
	test_good();
	test_files();
	dpkg_error_destroy(&err);
	return test_done();
}
