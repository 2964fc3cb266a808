/* Facts about pointing Perl, Ruby and Node programs at the namespace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/module-launcher.h"

#define NS "/opt/extras.ubuntu.com/cowbell"

static const char *const perl_dirs[] = {
	NS "/lib/x86_64-linux-gnu/perl5/5.36", NS "/share/perl5",
};
static const char *const ruby_dirs[] = { NS "/lib/ruby/vendor_ruby" };
static const char *const node_dirs[] = { NS "/share/nodejs" };
static struct module_launcher ml = {
	{ perl_dirs, ruby_dirs, node_dirs }, { 2, 1, 1 },
};

#define PERL "BEGIN { unshift @INC, '" NS "/lib/x86_64-linux-gnu/perl5/5.36', '" \
	NS "/share/perl5' }  # " MODULE_LAUNCHER_MARK "\n"
#define RUBY "$LOAD_PATH.unshift('" NS "/lib/ruby/vendor_ruby')  # " \
	MODULE_LAUNCHER_MARK "\n"
#define NODE "module.paths.unshift('" NS "/share/nodejs');  // " \
	MODULE_LAUNCHER_MARK "\n"

/* The patched S, or "(unchanged)". */
static const char *
patched(const char *s)
{
	static char keep[4096];
	size_t len;
	char *out = module_launcher_patch(s, strlen(s), &len, &ml);

	if (out == NULL)
		return "(unchanged)";
	snprintf(keep, sizeof(keep), "%.*s", (int)len, out);
	free(out);
	return keep;
}

static enum module_language
language(const char *s)
{
	return module_launcher_language(s, strlen(s));
}

int
main(void)
{
	test_plan(24);

	test_int(language("#!/usr/bin/perl\n"), ==, MODULE_PERL);
	test_int(language("#! /usr/bin/perl -w\nuse strict;\n"), ==, MODULE_PERL);
	test_int(language("#!/usr/bin/perl5.36.0"), ==, MODULE_PERL);
	test_int(language("#!/usr/bin/env perl\n"), ==, MODULE_PERL);
	test_int(language("#!/usr/bin/env -S perl -T\n"), ==, MODULE_PERL);
	test_int(language("#!/usr/bin/ruby3.1\n"), ==, MODULE_RUBY);
	test_int(language("#!/usr/bin/env LANG=C ruby\n"), ==, MODULE_RUBY);
	test_int(language("#!/usr/bin/nodejs\n"), ==, MODULE_NODE);
	test_int(language("#!/usr/bin/env node\n"), ==, MODULE_NODE);
	test_int(language("#!/bin/sh\nexec perl -x \"$0\"\n"), ==, MODULE_NONE);
	test_int(language("#!/usr/bin/perlito\n"), ==, MODULE_NONE);
	test_int(language("#!/usr/bin/env\n"), ==, MODULE_NONE);
	test_int(language("use strict;\n"), ==, MODULE_NONE);

	/* Perl: right after "#!", then "#line 2" keeps the line numbers. */
	test_str(patched("#!/usr/bin/perl -w\nuse Cowbell;\nCowbell::ring();\n"),
	         ==, "#!/usr/bin/perl -w\n" PERL "#line 2\nuse Cowbell;\n"
	         "Cowbell::ring();\n");
	test_str(patched("#!/usr/bin/perl"), ==, "#!/usr/bin/perl\n" PERL);
	test_str(patched("#!/usr/bin/perl\n" PERL "#line 2\nuse Cowbell;\n"), ==,
	         "(unchanged)");

	/* Ruby: after the magic comments. */
	test_str(patched("#!/usr/bin/ruby\n# -*- coding: utf-8 -*-\n"
	                 "require 'cowbell'\n"), ==,
	         "#!/usr/bin/ruby\n# -*- coding: utf-8 -*-\n" RUBY
	         "require 'cowbell'\n");

	/* Node: after the comments and the "use strict" directive. */
	test_str(patched("#!/usr/bin/env node\n// Cowbell\n'use strict';\n"
	                 "require('cowbell');\n"), ==,
	         "#!/usr/bin/env node\n// Cowbell\n'use strict';\n" NODE
	         "require('cowbell');\n");
	test_str(patched("#!/usr/bin/env node\nimport cowbell from 'cowbell';\n"),
	         ==, "(unchanged)");

	test_str(patched("#!/bin/sh\nexec perl -x \"$0\"\n"), ==, "(unchanged)");

	/* No directories of the language: nothing to add. */
	ml.n_dirs[MODULE_RUBY] = 0;
	test_str(patched("#!/usr/bin/ruby\nrequire 'x'\n"), ==, "(unchanged)");

	test_ok(module_launcher_dir_ok(NS "/share/perl5"));
	test_ok(!module_launcher_dir_ok("/opt/x'; system('rm')"));
	test_ok(!module_launcher_dir_ok("share/perl5"));
	return 0;
}
