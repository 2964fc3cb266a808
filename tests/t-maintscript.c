/*
 * Facts about reading an author's maintainer script for the converter's
 * report: a table of scripts and what the report says of each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "scripts/maintscript.h"

static struct integration db;
static char result[4096];
/* The Debian package the scripts come from. */
static const char *const old_names[] = { "figlet", "figlet-data" };

/*
 * What the report says of postinst SCRIPT: "ok", "ok: N dropped", "LINE:
 * first unknown statement", "error LINE: message".
 */
static const char *
judge(const char *script)
{
	struct maintscript_options o = {
		.db = &db, .package = "extras-figlet",
		.old_names = old_names, .nold_names = 2,
	};
	struct maintscript_verdict v;
	int line;
	struct dpkg_error err = DPKG_ERROR_INIT;

	if (maintscript_read(script, strlen(script), &o, &v, &line, &err) < 0)
		snprintf(result, sizeof(result), "error %d: %s", line, err.str);
	else if (v.nunknown > 0)
		snprintf(result, sizeof(result), "%d: %s", v.unknown[0].line,
		         v.unknown[0].text);
	else if (v.ndropped > 0)
		snprintf(result, sizeof(result), "ok: %zu dropped", v.ndropped);
	else
		snprintf(result, sizeof(result), "ok");
	maintscript_verdict_free(&v);
	dpkg_error_destroy(&err);
	return result;
}

/* The first dropped note of SCRIPT, "LINE: text" (a new string). */
static char *
first_drop(const char *script)
{
	struct maintscript_options o = {
		.db = &db, .package = "extras-figlet",
		.old_names = old_names, .nold_names = 2,
	};
	struct maintscript_verdict v;
	int line;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *report = NULL;

	if (maintscript_read(script, strlen(script), &o, &v, &line,
	                     &err) < 0) {
		dpkg_error_destroy(&err);
		return NULL;
	}
	if (v.ndropped > 0 && asprintf(&report, "%d: %s", v.dropped[0].line,
	                               v.dropped[0].text) < 0)
		abort();
	maintscript_verdict_free(&v);
	return report;
}

/*
 * angband's postinst, preinst and prerm, shortened: a test of a constant
 * that is never true, and a migration of the Debian package's own files
 * outside the namespace (which another package, the Debian one, may own
 * on the same system).
 */
#define MIGRATION \
	"#!/bin/sh\n#DEBHELPER#\nset -e\npackage_name=figlet\n" \
	"if [ -z \"$package_name\" ]; then\n" \
	"    print >&2 \"Internal error in package name.\"\n" \
	"    exit 1;\nfi\n" \
	"case \"$1\" in\n  configure)\n" \
	"    if [ -d /var/lib/games/figlet/save ]; then\n" \
	"\tfor file in $(find /var/lib/games/figlet/save/ -type f); do\n" \
	"\t    mv -f $file /var/games/figlet/save/$(basename $file)\n" \
	"\tdone\n    fi\n" \
	"    for dir in user info; do\n" \
	"        if [ -e /var/games/figlet/$dir/delete.me ]; then\n" \
	"            rm -f /var/games/figlet/$dir/delete.me\n" \
	"        fi\n" \
	"    done\n" \
	"    test -d /var/games/figlet/apex || \\\n" \
	"        mkdir -p /var/games/figlet/apex\n" \
	"    chown root:games /usr/games/figlet\n" \
	"    chmod 2755 /usr/games/figlet\n" \
	"    if [ -L \"/usr/doc/$package_name\" ]; then\n" \
	"        rm -f /usr/doc/$package_name\n    fi\n" \
	"    rm -f /etc/figlet.conf /etc/figlet-data/fonts.conf\n" \
	"    echo \"configured ${2:+from $2}\"\n" \
	"    : dpkg-divert --package foo --add --rename \\\n" \
	"    :             --divert /usr/bin/other.real /usr/bin/other\n" \
	"    ;;\nesac\nexit 0\n"

/* Scripts real packages carry: every statement understood. */
static const char *const ordinary[] = {
	"#!/bin/sh\nset -e\n#DEBHELPER#\nexit 0\n",
	/* dh_make's template */
	"#!/bin/sh\nset -e\n\ncase \"$1\" in\n  configure)\n  ;;\n"
	"  abort-upgrade|abort-remove|abort-deconfigure)\n  ;;\n  *)\n"
	"    echo \"postinst called with unknown argument \\`$1'\" >&2\n"
	"    exit 1\n  ;;\nesac\n\n#DEBHELPER#\n\nexit 0\n",
	/* figlet: || between tests, a command continued with \ */
	"#!/bin/sh\nset -e\n"
	"if [ \"$1\" = configure ] || [ \"$1\" = abort-upgrade ]; then\n"
	"    update-alternatives --install /usr/bin/figlet figlet \\\n"
	"        /usr/bin/figlet-figlet 50 \\\n"
	"        --slave /usr/share/man/man6/figlet.6.gz figlet.6.gz \\\n"
	"        /usr/share/man/man6/figlet-figlet.6.gz\n"
	"fi\n#DEBHELPER#\n",
	/* variables, umask, a function defined then called */
	"#!/bin/sh -e\nPKG=figlet\numask 0022\n"
	"say() {\n\techo \"$PKG: $1\"\n}\n"
	"if [ \"$1\" = configure ] && [ -z \"$2\" ]; then\n"
	"\tsay \"first install\"\nfi\n#DEBHELPER#\nexit 0\n",
	/* integration behind a lookup, and in a case arm */
	"#!/bin/sh\nset -e\n"
	"if command -v update-menus >/dev/null 2>&1; then update-menus; fi\n"
	"if [ -x \"`which install-info 2>/dev/null`\" ]; then\n"
	"  install-info --quiet /usr/share/info/figlet.info\nfi\n"
	"case \"$1\" in\n  configure)\n    ldconfig\n    echo done\n  ;;\n"
	"esac\n#DEBHELPER#\n",
	/* debconf */
	"#!/bin/sh\nset -e\n. /usr/share/debconf/confmodule\n"
	"db_get figlet/font || true\n#DEBHELPER#\n",
	/* angband's: a dead branch, the Debian package's old state */
	MIGRATION,
	NULL,
};

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *report;
	size_t i;

	if (integration_load(&db, NULL, &err) < 0) {
		printf("Bail out! %s\n", err.str);
		dpkg_error_destroy(&err);
		return 1;
	}
	test_plan(59);

	/* The standard idioms. */
	test_str(judge(ordinary[0]), ==, "ok");
	test_str(judge(ordinary[1]), ==, "ok");
	test_str(judge(ordinary[3]), ==, "ok");
	test_str(judge(ordinary[1]), ==, "ok");
	test_str(judge("#!/bin/bash\nset -eu\nlocal_x=1\n"
	              "f() {\n  local y=\"$local_x\"\n  return 0\n}\n"
	              "f\n#DEBHELPER#\n"), ==, "ok");
	test_str(judge("#!/bin/sh\nset -e\n[ \"$1\" = configure ] || exit 0\n"
	              "#DEBHELPER#\n"), ==, "ok");

	/* tmux's preinst: a version comparison is a condition like test. */
	test_str(judge("#!/bin/sh\nset -e\n"
	                 "if [ \"$1\" = \"upgrade\" ] && dpkg --compare-versions "
	                 "\"$2\" 'lt' \"1.5-2\"; then\n"
	                 "    update-rc.d -f tmux-cleanup remove >/dev/null\n"
	                 "fi\n\n#DEBHELPER#\n"), ==, "ok: 1 dropped");
	test_str(judge("#!/bin/sh\nset -e\n"
	              "if dpkg --compare-versions \"$2\" lt 1.0; then echo old; fi\n"
	              "#DEBHELPER#\n"), ==, "ok");
	test_str(judge("#!/bin/sh\nset -e\ndpkg --purge foo\n#DEBHELPER#\n"), ==,
	         "3: `dpkg --purge foo`: dpkg is not a command an extras "
	         "package's maintainer script may run, but as a condition: if "
	         "dpkg --compare-versions \"$2\" lt VERSION");

	/* System integration: dropped, with its report. */
	test_str(judge(ordinary[2]), ==, "ok: 2 dropped");
	test_str(judge(ordinary[4]), ==, "ok: 3 dropped");
	test_str(judge(ordinary[5]), ==, "ok: 2 dropped");
	report = first_drop(ordinary[2]);
	test_str(report, ==, "4: dropped system integration `update-alternatives "
	         "--install /usr/bin/figlet figlet /usr/bin/figlet-figlet 50 "
	         "-...`: "
	         "/usr/bin/figlet is not an alternative: `usr/bin/figlet-figlet "
	         "usr/bin/figlet` added to debian/extras-figlet.links: the app's "
	         "own programs and .desktop files still find it by that name");
	free(report);

	/* The Debian package's own files, and a branch that never runs. */
	test_str(judge(MIGRATION), ==, "ok: 8 dropped");
	report = first_drop(MIGRATION);
	test_str(report, ==, "5: dropped `if [ -z \"$package_name\" ]; then print "
	         ">&2 \"Internal error in package name.\" exit...`: it never "
	         "runs (its condition is false whatever dpkg passes)");
	free(report);
	test_str(judge("#!/bin/sh\nset -e\nchmod 4755 /usr/bin/figlet\n"
	                 "#DEBHELPER#\n"), ==, "ok: 1 dropped");
	report = first_drop("#!/bin/sh\nset -e\nchmod 4755 /usr/bin/figlet\n"
	                    "#DEBHELPER#\n");
	test_str(report, ==, "3: dropped `chmod 4755 /usr/bin/figlet`: it handles "
	         "/usr/bin/figlet, a file of the Debian package figlet outside "
	         "the namespace; extras-figlet has none there and must not touch "
	         "another package's (its own are in the namespace, with the "
	         "owners and modes the package gives them, never set-id)");
	free(report);
	/* ... but only those: each of these is unknown. */
	test_str(judge("#!/bin/sh\nrm -rf /var/games/figlet2\n"), ==,
	         "2: `rm -rf /var/games/figlet2`: rm is not a command an extras "
	         "package's maintainer script may run: remove it, or do it in "
	         "the app");
	test_str(judge("#!/bin/sh\nrm -rf /var/games/figlet/../../../etc\n"),
	         ==, "2: `rm -rf /var/games/figlet/../../../etc`: rm is not a "
	         "command an extras package's maintainer script may run: remove "
	         "it, or do it in the app");
	test_str(judge("#!/bin/sh\nrm -rf /home/figlet\n"), ==,
	         "2: `rm -rf /home/figlet`: rm is not a command an extras "
	         "package's maintainer script may run: remove it, or do it in "
	         "the app");
	test_str(judge("#!/bin/sh\nd=games\nrm -rf /var/$d/figlet /etc\n"), ==,
	         "3: `rm -rf /var/$d/figlet /etc`: rm is not a command an extras "
	         "package's maintainer script may run: remove it, or do it in "
	         "the app");
	test_str(judge("#!/bin/sh\nfor d in a; do\nrm -rf /var/games/$d/x\n"
	                 "done\n"), ==,
	         "2: `for d in a; do rm -rf /var/games/$d/x done`: a loop: a "
	         "maintainer script of an extras package may only use set, case "
	         "and if on $1, tests, variables, functions, echo, printf, umask "
	         "and exit");
	test_str(judge("#!/bin/sh\nif [ ! -d /etc/figlet ]; then\n"
	                 "  rm -rf /home\nfi\n"), ==,
	         "3: `rm -rf /home`: rm is not a command an extras package's "
	         "maintainer script may run: remove it, or do it in the app");
	test_str(judge("#!/bin/sh\nif [ -d /etc/figlet ]; then\n  :\nelse\n"
	                 "  rm -rf /home\nfi\n"), ==,
	         "5: `rm -rf /home`: rm is not a command an extras package's "
	         "maintainer script may run: remove it, or do it in the app");
	/* gawk's postinst: a loop over old links named for the alternatives
	 * the script registers (wherever it does) is dropped with them. */
	report = first_drop("#!/bin/sh\nset -e\n"
	              "for badlink in /usr/man/man1/awk.1 /usr/man/man1/nawk.1; do\n"
	              "  if [ -L $badlink ]; then\n"
	              "    if ! ls -l $(ls -l $badlink | cut -d\">\" -f2) "
	              ">/dev/null 2>&1; then\n"
	              "      rm -f $badlink; fi; fi; done\n"
	              "update-alternatives --quiet --install /usr/bin/awk awk "
	              "/usr/bin/figlet 10 \\\n"
	              "  --slave /usr/bin/nawk nawk /usr/bin/figlet\n"
	              "#DEBHELPER#\n");
	test_str(report, ==, "3: dropped `for badlink in /usr/man/man1/awk.1 "
	         "/usr/man/man1/nawk.1; do if [ -L $badlink ]; t...`: it handles "
	         "/usr/man/man1/awk.1, named for awk, which the Debian package "
	         "registers outside the namespace (update-alternatives); "
	         "extras-figlet registers nothing there and must not touch "
	         "another package's files");
	free(report);
	/* Each word must be such a path: nawk is not registered here. */
	test_str(judge("#!/bin/sh\nupdate-alternatives --install "
	                 "/usr/bin/awk awk /usr/bin/figlet 10\n"
	                 "for l in /usr/man/man1/awk.1 /usr/man/man1/nawk.1; do\n"
	                 "  rm -f $l\ndone\n"), ==,
	         "3: `for l in /usr/man/man1/awk.1 /usr/man/man1/nawk.1; do rm "
	         "-f $l done`: a loop: a maintainer script of an extras package "
	         "may only use set, case and if on $1, tests, variables, "
	         "functions, echo, printf, umask and exit");
	/* A pattern is not a path written out. */
	test_str(judge("#!/bin/sh\nupdate-alternatives --install "
	                 "/usr/bin/awk awk /usr/bin/figlet 10\n"
	                 "for l in /usr/man/man1/awk.*; do\n  rm -f $l\ndone\n"),
	         ==, "3: `for l in /usr/man/man1/awk.*; do rm -f $l done`: a "
	         "loop: a maintainer script of an extras package may only use "
	         "set, case and if on $1, tests, variables, functions, echo, "
	         "printf, umask and exit");
	/* A name that is no path component registers nothing. */
	test_str(judge("#!/bin/sh\nupdate-alternatives --install "
	                 "/usr/bin/awk share/man /usr/bin/figlet 10\n"
	                 "rm -f /usr/share/man\n"), ==,
	         "3: `rm -f /usr/share/man`: rm is not a command an extras "
	         "package's maintainer script may run: remove it, or do it in "
	         "the app");
	/* A variable set twice, or in a branch, is no constant. */
	test_str(judge("#!/bin/sh\np=figlet\np=\nif [ -z \"$p\" ]; then\n"
	                 "  print x\nfi\n"), ==,
	         "5: `print x`: print is not a command an extras package's "
	         "maintainer script may run: remove it, or do it in the app");
	test_str(judge("#!/bin/sh\ncase \"$1\" in configure) p=x ;; esac\n"
	                 "if [ -z \"$p\" ]; then\n  print x\nfi\n"), ==,
	         "4: `print x`: print is not a command an extras package's "
	         "maintainer script may run: remove it, or do it in the app");
	test_str(judge("#!/bin/sh\np=figlet\nf() {\n  read p\n}\n"
	                 "if [ -z \"$p\" ]; then\n  print x\nfi\n"), ==,
	         "4: `read p`: read is not a command an extras package's "
	         "maintainer script may run: remove it, or do it in the app");
	test_str(judge("#!/bin/sh\n: ${X:=1}\n"), ==,
	         "2: `: ${X:=1}`: an expansion other than $VAR, ${VAR}, "
	         "${VAR:-WORD} or ${VAR:+WORD}: write the value out");

	/* Hostile or not understood: unknown. */
	test_str(judge("#!/bin/sh\necho $(rm -rf /)\n#DEBHELPER#\n"), ==,
	         "2: `echo $(rm -rf /)`: command substitution runs commands "
	         "nobody reviewed: write the value out");
	test_str(judge("#!/bin/sh\necho `id`\n#DEBHELPER#\n"), ==,
	         "2: `echo `id``: command substitution runs commands nobody "
	         "reviewed: write the value out");
	test_str(judge("#!/bin/sh\nset -e\nrm -rf /var/lib/foo\n"), ==,
	         "3: `rm -rf /var/lib/foo`: rm is not a command an extras "
	         "package's maintainer script may run: remove it, or do it in "
	         "the app");
	test_str(judge("#!/bin/sh\necho x > /etc/foo\n"), ==,
	         "2: `echo x > /etc/foo`: a maintainer script of an extras "
	         "package writes no files: redirect only to /dev/null or "
	         "between descriptors (>&2)");
	test_str(judge("#!/bin/sh\neval \"$1\"\n"), ==,
	         "2: `eval \"$1\"`: eval is not a command whose effect can be "
	         "judged: write out what it would run");
	test_str(judge("#!/bin/sh\nX=`id`\n"), ==,
	         "2: `X=`id``: command substitution runs commands nobody "
	         "reviewed: write the value out");
	test_str(judge("#!/bin/sh\nCMD=rm\n$CMD -rf /\n"), ==,
	         "3: `$CMD -rf /`: the command name must be written out");
	/* The shell's own parameters are set: mksh's "oshf=$-". */
	test_str(judge("#!/bin/sh\nx=$-\necho \"$x $$ $!\" >&2\n#DEBHELPER#\n"),
	         ==, "ok");
	test_str(judge("#!/bin/sh\necho \"$HOME\"\n"), ==,
	         "2: `echo \"$HOME\"`: $HOME is never set by the script: set it "
	         "first (VAR=value), or write the value out");
	test_str(judge("#!/bin/sh\nf\nf() {\n  :\n}\n"), ==,
	         "2: `f`: f is not a command an extras package's maintainer "
	         "script may run: remove it, or do it in the app");
	test_str(judge("#!/bin/sh\necho x | sh\n"), ==,
	         "2: `echo x | sh`: a pipe feeds commands nobody reviewed: "
	         "remove it");
	test_str(judge("#!/bin/sh\nfor f in a b; do echo $f; done\n"), ==,
	         "2: `for f in a b; do echo $f; done`: a loop: a maintainer "
	         "script of an extras package may only use set, case and if "
	         "on $1, tests, variables, functions, echo, printf, umask and "
	         "exit");
	test_str(judge("#!/bin/sh\nif [ x ]; then\nfi\n"), ==,
	         "2: `if [ x ]; then fi`: an empty then, else or function body "
	         "is a syntax error for dash: put : in it");
	test_str(judge("#!/bin/sh\n[ \"$1\" = configure ]\n"), ==,
	         "2: `[ \"$1\" = configure ]`: a test whose result nobody uses "
	         "stops a set -e script when false: use it in if, or left of "
	         "&& or ||");
	test_str(judge("#!/bin/sh\nupdate-menus &\n"), ==,
	         "2: `update-menus`: a command in the background outlives the "
	         "script: remove the &");
	test_str(judge("#!/bin/sh\ncat <<EOF\nx\nEOF\n"), ==,
	         "2: `cat <<EOF x EOF`: a here-document feeds a command nobody "
	         "reviewed: remove it");
	test_str(judge("#!/bin/sh\nif adduser foo; then :; fi\n#DEBHELPER#\n"),
	         ==, "2: `adduser foo`: system integration whose result is used "
	         "cannot be dropped: remove it");
	test_str(judge("#!/usr/bin/perl\nexit 0;\n"), ==,
	         "error 1: is not a shell script (#!/bin/sh or #!/bin/bash): it "
	         "cannot be judged");
	test_str(judge("#!/bin/sh\necho \"abc\n"), ==,
	         "error 2: is not valid shell: reached EOF without closing "
	         "quote \"");
	test_str(judge("#!/bin/sh\n[[ -e x ]] && echo\n"), ==,
	         "2: `[[ -e x ]]`: [[ is not a command an extras package's "
	         "maintainer script may run: remove it, or do it in the app");

	/* Every ordinary script is understood. */
	for (i = 0; ordinary[i]; i++) {
		char what[64];

		snprintf(what, sizeof(what), "ordinary script %zu: understood",
		         i);
		if (strncmp(judge(ordinary[i]), "ok", 2) == 0)
			test_pass(what);
		else
			test_fail(what), printf("#   %s\n", result);
	}

	integration_free(&db);
	return test_done();
}
