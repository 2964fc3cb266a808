/* Facts about judging debhelper files and maintainer scripts. */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "convert/debian-files.h"

static char result[1024];

/* "keep", "drop", "rewrite", or the error. */
static const char *
judge(const char *script)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out;
	int r = debian_script_judge("debian/postinst", "extras-greet", script,
	                            NULL, &out, &err);

	snprintf(result, sizeof(result), "%s",
	         r == 0 ? "keep" : r == 1 ? "drop" : r == 2 ? "rewrite" :
	         err.str);
	dpkg_error_destroy(&err);
	free(out);
	return result;
}

int
main(int argc, char **argv)
{
	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(23);

	test_int(debian_file_kind("install"), ==, DEBIAN_FILE_PATHS);
	test_int(debian_file_kind("postinst"), ==, DEBIAN_FILE_SCRIPT);
	test_int(debian_file_kind("links"), ==, DEBIAN_FILE_LINKS);
	test_int(debian_file_kind("dirs"), ==, DEBIAN_FILE_DIRS);
	test_int(debian_file_kind("cron.daily"), ==, DEBIAN_FILE_DROP);
	test_int(debian_file_kind("service"), ==, DEBIAN_FILE_DROP);
	test_int(debian_file_kind("doc-base.manual"), ==, DEBIAN_FILE_DROP);
	test_int(debian_file_kind("symbols"), ==, DEBIAN_FILE_LIBRARY);
	test_int(debian_file_kind("shlibs"), ==, DEBIAN_FILE_LIBRARY);
	test_int(debian_file_kind("1"), ==, DEBIAN_FILE_UNKNOWN);
	test_int(debian_file_kind("xpm"), ==, DEBIAN_FILE_UNKNOWN);

	test_str(judge("#!/bin/sh\nset -e\n#DEBHELPER#\nexit 0\n"), ==, "keep");
	test_str(judge("#!/bin/sh\nset -e\n\ncase \"$1\" in\n  configure)\n"
	               "  ;;\n  abort-upgrade|abort-remove)\n  ;;\n  *)\n"
	               "    echo \"postinst called with unknown argument\" >&2\n"
	               "    exit 1\n  ;;\nesac\n\n#DEBHELPER#\n\nexit 0\n"), ==,
	         "keep");
	test_str(judge("#!/bin/sh -e\nif [ \"$1\" = configure ]; then\n"
	               "  update-alternatives --install /usr/bin/x x /usr/bin/y 5\n"
	               "fi\n"), ==, "drop");
	test_str(judge("#!/bin/sh\nif which update-menus >/dev/null; then "
	               "update-menus; fi\n"), ==, "drop");
	test_str(judge("#!/bin/sh\n. /usr/share/debconf/confmodule\n"
	               "db_input high foo/bar || true\ndb_go\n"), ==, "drop");
	test_str(judge("#!/bin/sh\nset -e\nrm -rf /var/lib/foo\n"), ==,
	         "debian/postinst:3: `rm -rf /var/lib/foo`: rm is not a command "
	         "an extras package's maintainer script may run: remove it, or "
	         "do it in the app");
	test_str(judge("#!/bin/sh\necho x > /etc/foo\n"), ==,
	         "debian/postinst:2: `echo x > /etc/foo`: a maintainer script of "
	         "an extras package writes no files: redirect only to /dev/null "
	         "or between descriptors (>&2)");
	test_str(judge("#!/bin/sh\nset -e\necho $(rm -rf /)\n#DEBHELPER#\n"),
	         ==, "debian/postinst:3: `echo $(rm -rf /)`: command substitution "
	         "runs commands nobody reviewed: write the value out");
	test_str(judge("#!/usr/bin/perl\nexit 0;\n"), ==,
	         "debian/postinst:1: maintainer script is not a shell script "
	         "(#!/bin/sh or #!/bin/bash): it cannot be judged");
	test_str(judge("#!/bin/sh\nldconfig \\\n  -v\n"), ==, "drop");
	test_str(judge("#!/bin/sh\nset -e\nif [ \"$1\" = configure ]; then\n"
	               "  ldconfig\n  echo \"configured\"\nfi\n#DEBHELPER#\n"),
	         ==, "rewrite");
	test_str(judge("#!/bin/sh\nset -e\nexit 0\n#DEBHELPER#\n"), ==,
	         "debian/postinst:3: line 3 may end the script on configure "
	         "before #DEBHELPER#, where dh_extras_apparmor's snippet loads "
	         "the AppArmor profile: the app would run unconfined; move "
	         "#DEBHELPER# before it");

	return test_done();
}
