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

test_done
