/* Facts about the executables, compilation and snippets of a profile. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "apparmor/apparmor-install.h"
#include "base/datadir.h"
#include "base/strings.h"
#include "apparmor/profile.h"

#define NS "/opt/extras.ubuntu.com/app"
#define NAME "opt.extras.ubuntu.com.app"

static void
put(const char *path, const char *text, mode_t mode)
{
	char dir[4096], *p;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s", path);
	for (p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	fp = fopen(path, "w");
	if (fp == NULL || fputs(text, fp) < 0 || fclose(fp) != 0) {
		perror(path);
		exit(99);
	}
	chmod(path, mode);
}

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char tmpl[] = "/tmp/t-apparmor-install.XXXXXX";
	char templates[4096], features[4200], *text, **list = NULL;
	struct extras_namespace ns;
	struct apparmor_snippet s;
	struct profile_request req = { 0 };
	size_t n = 0, len;
	bool parser;
	FILE *fp;

	test_plan(26);
	if (mkdtemp(tmpl) == NULL || chdir(tmpl) < 0)
		return 99;
	test_ok(namespace_init(&ns, "app", NULL) == NULL);
	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	snprintf(features, sizeof(features), "%s/" APPARMOR_FEATURES,
	         templates);

	put("debian/extras-a" NS "/bin/a", "#!/bin/sh\n", 0755);
	put("debian/extras-a" NS "/lib/a/helper", "\177ELF", 0700);
	put("debian/extras-a" NS "/share/a/data", "data\n", 0644);
	put("debian/extras-a/usr/bin/outside", "#!/bin/sh\n", 0755);
	if (symlink("a", "debian/extras-a" NS "/bin/link") != 0)
		return 1;
	mkdir("debian/extras-a-data", 0755);

	test_int(apparmor_executables("debian/extras-a", &ns, &list, &n,
	                              &err), ==, 0);
	test_int(n, ==, 2);
	test_str(list[0], ==, NS "/bin/a");
	test_str(list[1], ==, NS "/lib/a/helper");
	test_int(apparmor_executables("debian/extras-a-data", &ns, &list, &n,
	                              &err), ==, 0);
	test_int(apparmor_executables("debian/extras-nosuch", &ns, &list, &n,
	                              &err), ==, 0);
	test_int(n, ==, 2);

	test_int(apparmor_snippet_load(&s, templates, "postinst", NAME,
	                               &err), ==, 0);
	test_str(s.script, ==, "postinst");
	test_str(s.depends, ==, "apparmor (>= 3.0)");
	test_ok(strncmp(s.text, "if [ \"$1\" = \"configure\" ]; then\n", 32) == 0);
	test_ok(strstr(s.text, "APP_PROFILE=\"/etc/apparmor.d/" NAME "\"\n"));
	test_ok(strstr(s.text, "@NAME@") == NULL);
	apparmor_snippet_free(&s);
	test_int(apparmor_snippet_load(&s, templates, "postrm", NAME,
	                               &err), ==, 0);
	test_str(s.depends, ==, NULL);
	test_ok(strstr(s.text, "rm -f \"/etc/apparmor.d/local/" NAME "\""));
	test_ok(strstr(s.text, "rm -f /var/cache/apparmor/*/\"" NAME "\""));
	apparmor_snippet_free(&s);
	test_int(apparmor_snippet_load(&s, templates, "preinst", NAME,
	                               &err), ==, -1);
	test_ok(strstr(err.str, "preinst-apparmor: no such snippet"));
	dpkg_error_destroy(&err);

	parser = apparmor_parser() != NULL;
	req.ns = &ns;
	req.executables = (const char *const *)list;
	req.n_executables = n;
	test_int(profile_generate(&req, &text, &len, &err), ==, 0);
	fp = fopen("good", "w");
	fwrite(text, 1, len, fp);
	fclose(fp);
	free(text);
	put("bad", "abi <abi/3.0>,\nprofile x /x/** {\n  network nonsense,\n}\n",
	    0644);
	if (parser) {
		test_int(apparmor_validate("good", features, &err),
		         ==, 0);
		test_int(apparmor_validate("bad", features, &err),
		         ==, -1);
		test_ok(strncmp(err.str, "bad: does not compile: ", 23) == 0);
		test_ok(strchr(err.str, '\n') == NULL);
		dpkg_error_destroy(&err);
	} else {
		test_skip("a good profile compiles", "no apparmor_parser");
		test_skip("a bad one does not", "no apparmor_parser");
		test_skip("its error names the file", "no apparmor_parser");
		test_skip("in one line", "no apparmor_parser");
	}
	test_int(apparmor_validate("bad", "/nonexistent/features",
	                           &err), ==, -1);

	dpkg_error_destroy(&err);
	strings_free(list, n);
	if (system("rm -rf -- \"$PWD\"") != 0)
		return 99;
	return test_done();
}
