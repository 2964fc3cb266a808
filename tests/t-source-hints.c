/* Facts about finding where a source tree sets a compiled-in path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "relocate/source-hints.h"

static char dir[] = "/tmp/t-source-hints.XXXXXX";

static void
put(const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (fp == NULL)
		abort();
	fputs(text, fp);
	fclose(fp);
}

/* Hint I of HINTS as "FILE:LINE: WHAT: FIX", or "" past the end. */
static const char *
hint(const struct source_hints *hints, size_t i)
{
	static char out[1024];

	if (i >= hints->n)
		return "";
	snprintf(out, sizeof(out), "%s:%ld: %s%s%s", hints->v[i].file,
	         hints->v[i].line, hints->v[i].what,
	         hints->v[i].fix ? ": " : "",
	         hints->v[i].fix ? hints->v[i].fix : "");
	return out;
}

int
main(void)
{
	struct source_hints h;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char cmd[600];

	test_plan(18);
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(cmd, sizeof(cmd), "%s/src", dir);
	mkdir(cmd, 0755);
	snprintf(cmd, sizeof(cmd), "%s/debian", dir);
	mkdir(cmd, 0755);
	snprintf(cmd, sizeof(cmd), "%s/builddir", dir);
	mkdir(cmd, 0755);

	put("Makefile", "CONF ?= /etc/app/app.conf\n"
	    "install:\n\tinstall -m 644 app.conf $(DESTDIR)/etc/app/app.conf\n"
	    "OTHER = /etc/application\n");
	put("CMakeLists.txt", "set(APP_CONF \"/etc/app/app.conf\" CACHE PATH \"\")\n");
	put("configure.ac", "AC_DEFINE_UNQUOTED([CONFDIR], [\"/etc/app\"], [conf])\n");
	put("meson_options.txt", "option('confdir',\n  type: 'string',\n"
	    "  value: '/etc/app')\n");
	put("src/config.h", "#ifndef SYSCONF\n#define SYSCONF \"/etc/app/app.conf\"\n#endif\n");
	put("src/paths.h", "#define DATA \"/etc/app/data\"\n");
	put("src/main.c", "FILE *f = fopen(\"/etc/app/x\", \"r\");\n");
	put("debian/rules", "CONF = /etc/app\n");
	put("README", "/etc/app\n");
	/* A build tree: generated files only repeat the source. */
	put("builddir/CMakeCache.txt", "");
	put("builddir/config.h", "#define CONFDIR \"/etc/app\"\n");

	test_int(source_hints_find(dir, "/etc/app", "/o/app/etc/app", &h,
	                           &err), ==, 0);
	test_int(h.n, ==, 7);
	test_str(hint(&h, 0), ==, "CMakeLists.txt:1: CMake variable APP_CONF: "
	         "pass -DAPP_CONF=/o/app/etc/app/app.conf to dh_auto_configure");
	test_str(hint(&h, 1), ==, "Makefile:1: make variable CONF: "
	         "pass CONF=/o/app/etc/app/app.conf to dh_auto_build");
	test_str(hint(&h, 2), ==, "configure.ac:1: CONFDIR in configure.ac: "
	         "pass the option or variable of ./configure that sets it to "
	         "dh_auto_configure, else patch it to /o/app/etc/app");
	test_str(hint(&h, 3), ==, "meson_options.txt:3: Meson option confdir: "
	         "pass -Dconfdir=/o/app/etc/app to dh_auto_configure");
	test_str(hint(&h, 4), ==, "src/config.h:2: #define SYSCONF: add "
	         "-DSYSCONF='\"/o/app/etc/app/app.conf\"' to "
	         "DEB_CPPFLAGS_MAINT_APPEND in debian/rules");
	test_str(hint(&h, 5), ==, "src/main.c:1: a string in the code: "
	         "patch it (debian/patches) to /o/app/etc/app");
	test_str(hint(&h, 6), ==, "src/paths.h:1: #define DATA: "
	         "patch it (debian/patches) to \"/o/app/etc/app/data\"");
	source_hints_free(&h);

	test_int(source_hints_find(dir, "/usr/share/none", "/o/x", &h,
	                           &err), ==, 0);
	test_int(h.n, ==, 0);
	source_hints_free(&h);

	/* Go: constants and variables, alone or in blocks, and strings in
	 * the code; not the tests, nor dh-golang's copies in _build/src. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/cmd %s/_build/src/x", dir, dir);
	if (system(cmd) != 0)
		abort();
	put("cmd/paths.go", "package main\n\n"
	    "const dataDir = \"/usr/share/gopher\"\n\n"
	    "var (\n\tconfDir string = \"/usr/share/gopher/conf\"\n)\n\n"
	    "const (\n\ta = 1\n\n\tplugins = \"/usr/share/gopher/plugins\"\n)\n\n"
	    "func f() string {\n\tx := \"/usr/share/gopher/x\"\n"
	    "\tdir = \"/usr/share/gopher\"\n\treturn x\n}\n");
	put("cmd/paths_test.go", "const t = \"/usr/share/gopher\"\n");
	put("_build/src/x/paths.go", "const dataDir = \"/usr/share/gopher\"\n");
	test_int(source_hints_find(dir, "/usr/share/gopher", "/o/g/share/gopher",
	                           &h, &err), ==, 0);
	test_str(hint(&h, 0), ==, "cmd/paths.go:3: Go constant dataDir: "
	         "patch it (debian/patches) to /o/g/share/gopher");
	test_str(hint(&h, 1), ==, "cmd/paths.go:6: Go variable confDir: "
	         "patch it (debian/patches) to /o/g/share/gopher/conf");
	test_str(hint(&h, 2), ==, "cmd/paths.go:12: Go constant plugins: "
	         "patch it (debian/patches) to /o/g/share/gopher/plugins");
	test_str(hint(&h, 3), ==, "cmd/paths.go:16: a string in the Go code: "
	         "patch it (debian/patches) to /o/g/share/gopher/x");
	test_str(hint(&h, 4), ==, "cmd/paths.go:17: a string in the Go code: "
	         "patch it (debian/patches) to /o/g/share/gopher");
	test_int(h.n, ==, 5);
	source_hints_free(&h);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return test_done();
}
