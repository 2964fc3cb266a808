#!/bin/sh
# Names compiled into an app: a GTK program asks for its icon by the name
# upstream gave it, though the icon is exported as extras-NAME.  Built
# with the add-on, the icon is in the namespace under its own name too,
# the program is started with the namespace's share on XDG_DATA_DIRS from
# its menu entry and from a terminal, and GTK finds it; the gate refuses
# the package that lacks it.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com
NS=$ROOT/glint

if command -v xvfb-run >/dev/null && pkg-config --exists gtk+-3.0; then
	test_set_prereq GTK
fi

test_expect_success GTK 'a GTK program naming its icon: built with the add-on' '
	build_fixture glint || { tail -n 30 glint.log; false; } &&
	deb=$(echo extras-glint_1.0_*.deb) &&
	test -z "$(outside_namespace $deb /$NS)" &&
	deb_files $deb >files &&
	grep_q "^usr/share/icons/hicolor/48x48/apps/extras-org.example.Glint.png$" files &&
	grep_q "^$NS/share/icons/hicolor/48x48/apps/org.example.Glint.png$" files &&
	grep_q "^$NS/bin/glint$" files && grep_q "^$NS/bin/\.glint$" files &&
	grep_q "dh_extras_icons: .*: 1 icon kept under /$NS/share by their own names" glint.log
'

test_expect_success GTK 'its menu entry runs the launcher, naming the exported icon' '
	in_namespace extras-glint_1.0_*.deb -- true &&
	d=ns/usr/share/applications/extras-org.example.Glint.desktop &&
	grep_q "^Exec=/$NS/bin/glint$" $d &&
	grep_q "^Icon=extras-org.example.Glint$" $d
'

test_expect_success GTK 'from a terminal, GTK finds the icon by its own name in the namespace' '
	mkdir -p "$TRASH/home" &&
	in_namespace extras-glint_1.0_*.deb -- env -u XDG_DATA_DIRS HOME="$TRASH/home" \
		xvfb-run -a /$NS/bin/glint >out 2>err &&
	echo "/$NS/share/icons/hicolor/48x48/apps/org.example.Glint.png" >expect &&
	cmp expect out
'

test_expect_success GTK 'the program without its launcher gets the missing image' '
	in_namespace extras-glint_1.0_*.deb -- env -u XDG_DATA_DIRS HOME="$TRASH/home" \
		xvfb-run -a /$NS/bin/.glint >out 2>err &&
	echo missing >expect && cmp expect out
'

test_expect_success GTK 'the gate accepts it' '
	extras-review extras-glint_1.0_*.deb >review.out &&
	grep_q " accepted$" review.out
'

test_expect_success GTK 'the gate refuses it without the icon under its own name' '
	dpkg-deb -R extras-glint_1.0_*.deb unpacked &&
	rm unpacked/$NS/share/icons/hicolor/48x48/apps/org.example.Glint.png &&
	sed -i "/share\/icons\/hicolor\/48x48\/apps\/org.example.Glint.png$/d" unpacked/DEBIAN/md5sums &&
	dpkg-deb --root-owner-group -Zgzip --build unpacked bad.deb >/dev/null &&
	expect_status 1 extras-review bad.deb >review.out &&
	grep_q "^bad.deb: works: $NS/bin/.glint: offset [0-9]*: the program looks up the icon .org.example.Glint., which the upload exports only as .extras-org.example.Glint. and does not ship in the namespace" review.out &&
	test "$(grep -c ": works: " review.out)" = 1
'

test_done
