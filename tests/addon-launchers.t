#!/bin/sh
# Interpreted programs with the namespace's data in sight: one app whose
# GSettings schema and icon are in its namespace, with a Python program
# (Gio.Settings), Perl, shell and Node programs (gsettings get) and an
# awk program.  Built with the add-on, each finds the schema from a
# terminal with a plain environment and from its menu entry, names itself
# by the name it was started by and finds its words beside itself; the
# first four by a line of their own, awk behind a launcher.  A second run
# of dh_extras_launchers changes nothing.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com
NS=$ROOT/chorus

if command -v gsettings >/dev/null && command -v node >/dev/null &&
   /usr/bin/python3 -c "import gi; gi.require_version('Gio', '2.0')" 2>/dev/null; then
	test_set_prereq INTERPRETERS
fi

# plain DEB CMD...: CMD in the installed namespace, from a terminal whose
# environment holds nothing but PATH and HOME.
plain () {
	deb=$1 && shift &&
	in_namespace $deb -- env -i PATH=/usr/bin:/bin HOME="$TRASH/home" "$@"
}

test_expect_success 'built with the add-on: a line for each script, a launcher for awk' '
	build_fixture chorus || { tail -n 30 chorus.log; false; } &&
	for p in "chorus: a Python" "chorus-verse: a Perl" "chorus-hum: a shell" \
		"chorus-count: a Node"; do
		grep_q "dh_extras_launchers: /$NS/bin/$p program, puts /$NS/share first on XDG_DATA_DIRS itself" chorus.log || return 1
	done &&
	grep_q "dh_extras_launchers: /$NS/bin/chorus-tally: runs /$NS/bin/.chorus-tally with /$NS/share first on XDG_DATA_DIRS" chorus.log &&
	grep_q "dh_extras_launchers: /$NS/bin/chorus-refrain: was a link, runs /$NS/share/chorus/refrain with /$NS/share first on XDG_DATA_DIRS" chorus.log &&
	grep_q "dh_extras_launchers: /$NS/bin/chorus-drone -> /$NS/share/chorus/drone: a shell program, puts /$NS/share first on XDG_DATA_DIRS itself" chorus.log &&
	deb=extras-chorus_1.0_all.deb &&
	test -z "$(outside_namespace $deb /$NS)" &&
	deb_files $deb >files &&
	grep "^$NS/bin/\." files >hidden &&
	echo "$NS/bin/.chorus-tally" >expect && cmp expect hidden &&
	grep_q "^$NS/share/glib-2.0/schemas/gschemas.compiled$" files &&
	grep_q "^$NS/share/icons/hicolor/scalable/apps/org.example.Chorus.svg$" files &&
	grep_q "^usr/share/icons/hicolor/scalable/apps/extras-org.example.Chorus.svg$" files
'

test_expect_success 'the lines come where each language allows them' '
	in_namespace extras-chorus_1.0_all.deb -- true &&
	b=ns/$NS/bin &&
	sed -n 2p $b/chorus-hum >line &&
	grep_q "^case .*export XDG_DATA_DIRS  # dh_extras_launchers$" line &&
	sed -n 2,3p $b/chorus-verse >line &&
	grep_q "^BEGIN { .*  # dh_extras_launchers$" line && grep_q "^#line 2$" line &&
	sed -n 3p $b/chorus-count >line &&
	grep_q "^process.env.XDG_DATA_DIRS = .*  // dh_extras_launchers$" line &&
	sed -n 3p $b/chorus >line &&
	grep_q "^import os; os.environ\[.XDG_DATA_DIRS.\] = .*  # dh_extras_launchers$" line &&
	for p in chorus chorus-verse chorus-hum chorus-count; do
		test "$(grep -c dh_extras_launchers $b/$p)" = 1 || return 1
	done
'

test_expect_success INTERPRETERS 'from a terminal, no variable set, each reads the schema by its own name' '
	mkdir -p "$TRASH/home" &&
	deb=extras-chorus_1.0_all.deb &&
	for p in chorus chorus-verse chorus-hum chorus-count; do
		plain $deb /$NS/bin/$p >out 2>err || { cat err; return 1; }
		echo "$p sings alto: la la la" >expect &&
		head -n 1 out >first && cmp expect first || return 1
	done &&
	plain $deb /$NS/bin/chorus-tally >out 2>err &&
	echo "chorus-tally sings alto" >expect && cmp expect out
'

test_expect_success INTERPRETERS 'a program linked from bin: the link a launcher, or the script it names given its line' '
	deb=extras-chorus_1.0_all.deb &&
	test ! -L ns/$NS/bin/chorus-refrain &&
	test "$(readlink ns/$NS/bin/chorus-drone)" = ../share/chorus/drone &&
	plain $deb /$NS/bin/chorus-refrain >out 2>err || { cat err; return 1; }
	echo "chorus-tally sings alto" >expect && cmp expect out &&
	plain $deb /$NS/bin/chorus-drone >out 2>err || { cat err; return 1; }
	echo "chorus-drone sings alto: la la la" >expect &&
	head -n 1 out >first && cmp expect first
'

test_expect_success INTERPRETERS 'the shell program finds the icon under its own name in the namespace' '
	plain extras-chorus_1.0_all.deb /$NS/bin/chorus-hum >out 2>err &&
	printf "%s\n" "chorus-hum sings alto: la la la" \
		"icon: /$NS/share/icons/hicolor/scalable/apps/org.example.Chorus.svg" >expect &&
	cmp expect out
'

# A session has XDG_DATA_DIRS; its menu runs the Exec= line as it is.
test_expect_success INTERPRETERS 'from its menu entry, each reads the schema' '
	deb=extras-chorus_1.0_all.deb &&
	for d in Chorus:chorus Chorus.Verse:chorus-verse Chorus.Hum:chorus-hum; do
		exec=$(sed -n "s/^Exec=//p" ns/usr/share/applications/extras-org.example.${d%%:*}.desktop) &&
		test "$exec" = "/$NS/bin/${d#*:}" &&
		in_namespace $deb -- env -i PATH=/usr/bin:/bin HOME="$TRASH/home" \
			XDG_DATA_DIRS=/usr/share $exec >out 2>err || { cat err; return 1; }
		echo "${d#*:} sings alto: la la la" >expect &&
		head -n 1 out >first && cmp expect first || return 1
	done
'

test_expect_success INTERPRETERS 'without the line or the launcher, the schema is not installed' '
	deb=extras-chorus_1.0_all.deb &&
	! in_namespace $deb -- env -i PATH=/usr/bin:/bin HOME="$TRASH/home" sh -c "
		grep -v dh_extras_launchers /$NS/bin/chorus >/$NS/bin/.chorus-bare &&
		/usr/bin/python3 /$NS/bin/.chorus-bare" >out 2>err &&
	grep_q "Settings schema .org.example.Chorus. is not installed" err &&
	! plain $deb /$NS/bin/.chorus-tally >out 2>err &&
	grep_q "No such schema .*org.example.Chorus" err
'

test_expect_success 'a second run of dh_extras_launchers changes nothing' '
	b=chorus/debian/extras-chorus/$NS/bin &&
	(cd $b && ls -a && md5sum chorus* .chorus-tally ../share/chorus/drone) >before &&
	(cd chorus && dh_extras_launchers) >again 2>&1 &&
	(cd $b && ls -a && md5sum chorus* .chorus-tally ../share/chorus/drone) >after &&
	cmp before after &&
	test ! -s again
'

test_expect_success 'the gate accepts it' '
	extras-review extras-chorus_1.0_all.deb >review.out &&
	grep_q " accepted$" review.out
'

test_done
