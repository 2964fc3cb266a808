/* Facts about the launchers of a namespace's programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/launcher.h"

#define NS "/opt/extras.ubuntu.com/bells"
#define D NS "/share"
#define DEFAULT "/usr/local/share:/usr/share"

#define SH "case \":${XDG_DATA_DIRS:=" DEFAULT "}:\" in *:'" D "':*) ;; " \
	"*) XDG_DATA_DIRS='" D "':$XDG_DATA_DIRS ;; esac; export XDG_DATA_DIRS" \
	"  # dh_extras_launchers\n"
#define PY "import os; os.environ['XDG_DATA_DIRS'] = (lambda x: x if '" D \
	"' in x.split(':') else '" D ":' + x)(os.environ.get('XDG_DATA_DIRS')" \
	" or '" DEFAULT "')  # dh_extras_launchers\n"
#define PL "BEGIN { my $x = $ENV{XDG_DATA_DIRS} || '" DEFAULT "'; " \
	"$ENV{XDG_DATA_DIRS} = (grep { $_ eq '" D "' } split /:/, $x) ? $x : '" \
	D ":' . $x }  # dh_extras_launchers\n"
#define RB "ENV['XDG_DATA_DIRS'] = (ENV['XDG_DATA_DIRS'].to_s.empty? ? '" \
	DEFAULT "' : ENV['XDG_DATA_DIRS']).then { |x| x.split(':').include?('" \
	D "') ? x : '" D ":' + x }  # dh_extras_launchers\n"
#define JS "process.env.XDG_DATA_DIRS = (x => x.split(':').includes('" D \
	"') ? x : '" D ":' + x)(process.env.XDG_DATA_DIRS || '" DEFAULT "');" \
	"  // dh_extras_launchers\n"

/* The script S given its line, or "(unchanged)". */
static const char *
patched(const char *s)
{
	static char keep[4096];
	size_t len;
	char *out = launcher_line_patch(s, strlen(s), &len, (void *)D);

	if (out == NULL)
		return "(unchanged)";
	snprintf(keep, sizeof(keep), "%.*s", (int)len, out);
	free(out);
	return keep;
}

#define LANG(s) launcher_language(s, strlen(s))

int
main(void)
{
	char *s;

	test_plan(38);

	s = launcher_script(NS "/bin/.bells", NS "/share");
	test_str(s, ==, "#!/bin/bash\n"
	         "# dh_extras_launchers: " NS "/bin/.bells with the "
	         "namespace's data in sight\n"
	         "case \":${XDG_DATA_DIRS:=/usr/local/share:/usr/share}:\" in\n"
	         "*:" NS "/share:*) ;;\n"
	         "*) XDG_DATA_DIRS='" NS "/share':$XDG_DATA_DIRS ;;\n"
	         "esac\n"
	         "export XDG_DATA_DIRS\n"
	         "exec -a \"$0\" '" NS "/bin/.bells' \"$@\"\n");
	test_ok(launcher_is(s, strlen(s)));
	free(s);

	test_ok(!launcher_is("#!/bin/bash\necho", 16));
	test_ok(!launcher_is("\177ELF", 4));
	/* Nothing a shell would read otherwise. */
	test_ok(launcher_script(NS "/bin/a'b", NS "/share") == NULL);
	test_ok(launcher_script(NS "/bin/a b", NS "/share") == NULL);
	test_ok(launcher_script(NS "/bin/$x", NS "/share") == NULL);
	test_ok(launcher_script("bin/a", NS "/share") == NULL);
	test_ok(launcher_script(NS "/bin/a", NS "/sh*re") == NULL);

	/* Scripts whose language says it in a line. */
	test_ok(LANG("#!/bin/sh\n") == LAUNCHER_SHELL);
	test_ok(LANG("#! /bin/bash -e\n") == LAUNCHER_SHELL);
	test_ok(LANG("#!/usr/bin/env -S ksh93 -e\n") == LAUNCHER_SHELL);
	test_ok(LANG("#!/usr/bin/python3.11 -Es\n") == LAUNCHER_PYTHON);
	test_ok(LANG("#!/usr/bin/env perl\n") == LAUNCHER_PERL);
	test_ok(LANG("#!/usr/bin/ruby3.1\n") == LAUNCHER_RUBY);
	test_ok(LANG("#!/usr/bin/env nodejs\n") == LAUNCHER_NODE);
	/* Other interpreters, and those that read a shell script whole. */
	test_ok(LANG("#!/usr/bin/awk -f\n") == LAUNCHER_NONE);
	test_ok(LANG("#!/usr/bin/gjs -m\n") == LAUNCHER_NONE);
	test_ok(LANG("#!/bin/shx\n") == LAUNCHER_NONE);
	test_ok(LANG("#!/bin/sh\neval 'exec perl -S $0 ${1+\"$@\"}'\n"
	             "\tif 0;\n") == LAUNCHER_NONE);
	test_ok(LANG("#!/bin/sh\n# restart with wish \\\n"
	             "exec wish \"$0\" \"$@\"\n") == LAUNCHER_NONE);
	test_ok(LANG("\177ELF") == LAUNCHER_NONE);

	test_str(patched("#!/bin/sh\necho \"$0\"\n"), ==,
	         "#!/bin/sh\n" SH "echo \"$0\"\n");
	test_str(patched("#!/usr/bin/python3\n# c\n\"\"\"Doc.\"\"\"\n"
	                 "from __future__ import annotations\nimport gi\n"), ==,
	         "#!/usr/bin/python3\n# c\n\"\"\"Doc.\"\"\"\n"
	         "from __future__ import annotations\n" PY "import gi\n");
	test_str(patched("#!/usr/bin/perl -w\nuse strict;\n"), ==,
	         "#!/usr/bin/perl -w\n" PL "#line 2\nuse strict;\n");
	/* dh_extras_modules' line first, each followed by its #line. */
	test_str(patched("#!/usr/bin/perl\nBEGIN { unshift @INC, '" NS
	                 "/share/perl5' }  # dh_extras_modules\n#line 2\n1;\n"),
	         ==, "#!/usr/bin/perl\n" PL "#line 2\nBEGIN { unshift @INC, '"
	         NS "/share/perl5' }  # dh_extras_modules\n#line 2\n1;\n");
	test_str(patched("#!/usr/bin/perl"), ==, "#!/usr/bin/perl\n" PL);
	test_str(patched("#!/usr/bin/ruby\n# frozen_string_literal: true\n"
	                 "puts 1\n"), ==,
	         "#!/usr/bin/ruby\n# frozen_string_literal: true\n" RB
	         "puts 1\n");
	test_str(patched("#!/usr/bin/node\n'use strict';\nmain();\n"), ==,
	         "#!/usr/bin/node\n'use strict';\n" JS "main();\n");
	/* Once only; a launcher, another interpreter, no script: nothing. */
	test_str(patched("#!/bin/sh\n" SH "echo\n"), ==, "(unchanged)");
	test_str(patched("#!/usr/bin/perl\n" PL "#line 2\n1;\n"), ==,
	         "(unchanged)");
	s = launcher_script(NS "/bin/.bells", D);
	test_str(patched(s), ==, "(unchanged)");
	test_ok(launcher_sets_data(s, strlen(s)));
	free(s);
	test_str(patched("#!/usr/bin/awk -f\n"), ==, "(unchanged)");
	test_str(patched("echo\n"), ==, "(unchanged)");
	test_ok(launcher_sets_data("#!/bin/sh\n" SH, strlen("#!/bin/sh\n" SH)));
	test_ok(!launcher_sets_data("#!/bin/sh\necho\n", 15));
	/* A data directory no line can name. */
	test_ok(launcher_line_patch("#!/bin/sh\n", 10, &(size_t){ 0 },
	                            (void *)NS "/it's") == NULL);
	return test_done();
}
