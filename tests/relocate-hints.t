#!/bin/sh
# A compiled-in path relocation cannot patch names where the source sets
# it: the boxes fixture's own make variable GLOBALCONF, and the argument
# that builds it for the namespace.  Passing that argument makes the build
# go through.

. "$TOP/tests/lib.sh"

NS=/opt/extras.ubuntu.com/boxes

test_expect_success 'the build fails naming the make variable and the argument that fixes it' '
	! build_fixture boxes &&
	grep_q "^dh_extras_relocate: error: $NS/bin/boxes: offset [0-9]*: ./etc/boxes.: " boxes.log &&
	grep_q "^dh_extras_relocate: error: ./etc/boxes. is set in the source: Makefile:3: make variable GLOBALCONF: pass GLOBALCONF=$NS/etc/boxes/boxes-config to dh_auto_build\$" boxes.log &&
	test "$(grep -c "is set in the source" boxes.log)" = 1
'

test_expect_success 'with that argument the program is built for the namespace' '
	cp -a "$TOP/tests/fixtures/boxes" fixed-src &&
	printf "\noverride_dh_auto_build:\n\tdh_auto_build -- GLOBALCONF=$NS/etc/boxes/boxes-config\n" \
		>>fixed-src/debian/rules &&
	build_fixture fixed "$TRASH/fixed-src" || { tail -n 20 fixed.log; false; } &&
	in_namespace extras-boxes_1.0_*.deb -- $NS/bin/boxes >out &&
	grep_q "^configured\$" out
'

test_expect_success 'a path in the code itself: the hint is a patch; none for a comment' '
	! build_fixture stubborn &&
	grep_q "^dh_extras_relocate: error: ./usr/share/stubborn. is set in the source: stubborn.c:7: a string in the code: patch it (debian/patches) to /opt/extras.ubuntu.com/stubborn/share/stubborn\$" stubborn.log &&
	# Comments set nothing: no hint points at one.
	! grep "stubborn.c:3:" stubborn.log &&
	! grep "stubborn.c:9:" stubborn.log
'

# A fallback: the program reads its data relative to itself and names
# /usr/share/fallback only when that is missing.  The build cannot tell,
# so it fails, and names the one line that accepts that reference alone.
FB=/opt/extras.ubuntu.com/fallback

test_expect_success 'a fallback path fails the build, naming the line that accepts it' '
	! build_fixture fallback &&
	grep_q "^dh_extras_relocate: error: $FB/bin/fallback: offset [0-9]*: ./usr/share/fallback.: " fallback.log &&
	grep_q "^dh_extras_relocate: error: $FB/bin/fallback: if ./usr/share/fallback. is only a fallback (tried after a path the program finds first, such as one relative to itself), accept this reference alone with the line \"  - $FB/bin/fallback /usr/share/fallback\" under unpatched: in debian/extras.yaml\$" fallback.log
'

test_expect_success 'with that line the build goes on, says what it let through, and the app works' '
	cp -a "$TOP/tests/fixtures/fallback" accepted-src &&
	line=$(sed -n "s/.*with the line \"\(.*\)\" under unpatched:.*/\1/p" fallback.log) &&
	printf "unpatched:\n%s\n" "$line" >accepted-src/debian/extras.yaml &&
	build_fixture accepted "$TRASH/accepted-src" || { tail -n 30 accepted.log; false; } &&
	grep_q "^dh_extras_relocate: note: $FB/bin/fallback: offset [0-9]*: ./usr/share/fallback. left unpatched, as debian/extras.yaml declares\$" accepted.log &&
	grep_q "0 unpatched (1 more accepted)" accepted.log &&
	in_namespace extras-fallback_1.0_*.deb -- $FB/bin/fallback >out &&
	echo "found beside the program" >expect && cmp expect out
'

test_expect_success 'a line for another string lets no real unpatched path through' '
	cp -a "$TOP/tests/fixtures/stubborn" other-src &&
	printf "unpatched:\n  - /opt/extras.ubuntu.com/stubborn/bin/stubborn /usr/share/other\n" \
		>other-src/debian/extras.yaml &&
	! build_fixture other "$TRASH/other-src" &&
	grep_q "^dh_extras_relocate: error: /opt/extras.ubuntu.com/stubborn/bin/stubborn: offset [0-9]*: ./usr/share/stubborn.: " other.log &&
	grep_q "^dh_extras_relocate: warning: debian/extras.yaml: unpatched: ./opt/extras.ubuntu.com/stubborn/bin/stubborn /usr/share/other. matches no reference: remove it\$" other.log &&
	grep_q "^dh_extras_relocate: error: 1 reference to moved paths cannot be patched" other.log
'

# A path compiled as an instruction's immediate: strcpy(dir, "/usr/lib")
# stores the eight bytes with one move, and no string scan sees them.
# The source names the directory the plugins moved out of: the build
# fails, saying where, rather than the app finding no plugins.
PD=/opt/extras.ubuntu.com/plugdir

test_expect_success 'a directory built from an immediate fails the build, located' '
	! build_fixture plugdir &&
	grep_q "^dh_extras_relocate: error: $PD/bin/plugdir: offset [0-9]*: ./usr/lib.: built from instruction immediates, where relocation cannot see nor patch it (named at plugdir.c:6), though files below it moved into $PD\$" plugdir.log &&
	grep_q "^dh_extras_relocate: error: 1 reference to moved paths cannot be patched" plugdir.log &&
	offset=$(sed -n "s|^dh_extras_relocate: error: $PD/bin/plugdir: offset \([0-9]*\): .*|\1|p" plugdir.log) &&
	test "$(dd if=plugdir/debian/extras-plugdir$PD/bin/plugdir bs=1 skip=$offset count=8 2>/dev/null)" = /usr/lib
'

test_expect_success 'built with the define for the namespace, it finds its plugins' '
	cp -a "$TOP/tests/fixtures/plugdir" plugdir-fixed &&
	echo "export DEB_CPPFLAGS_MAINT_APPEND = -DLIBDIR=\\\"$PD/lib\\\"" >>plugdir-fixed/debian/rules &&
	build_fixture fixed-plugdir "$TRASH/plugdir-fixed" || { tail -n 30 fixed-plugdir.log; false; } &&
	in_namespace extras-plugdir_1.0_*.deb -- $PD/bin/plugdir >out &&
	echo "1 plugin" >expect && cmp expect out
'

test_done
