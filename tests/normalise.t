#!/bin/sh
# What an extras package cannot carry is normalised, dropped or fixed, each
# with a line saying so, instead of failing the gate late: any Priority
# but optional (extra is deprecated) becomes optional, a udeb among the
# binary packages is dropped from the build (its stanza kept under a build profile nobody
# enables, so debhelper still installs into debian/tmp), two packages shipping the same program get one profile entry,
# and set-id bits an override keeps are cleared with a warning.

. "$TOP/tests/lib.sh"

NS=/opt/extras.ubuntu.com/twin

# The source package "twin", written as its maintainer would: two flavours
# of one game that conflict with each other, a udeb of it, Priority extra,
# and an install that makes the game setgid, kept by dh_fixperms -X.
make_twin () {
	mkdir -p "$1/debian/source" &&
	cat >"$1/Makefile" <<'MAKE' &&
all: twin
twin: twin.c
	$(CC) $(CFLAGS) -o $@ twin.c
install: twin
	install -D -m 2755 twin $(DESTDIR)/usr/games/twin
clean:
	rm -f twin
MAKE
	printf '#include <stdio.h>\nint main(void) { puts("twin"); return 0; }\n' >"$1/twin.c" &&
	cat >"$1/debian/control" <<'CONTROL' &&
Source: twin
Section: games
Priority: extra
Maintainer: Twin Author <author@example.org>
Build-Depends: debhelper-compat (= 13)
Standards-Version: 4.6.2
Rules-Requires-Root: no

Package: twin
Architecture: any
Depends: ${misc:Depends}, ${shlibs:Depends}
Conflicts: twin-nox
Description: a game
 The game, one flavour.

Package: twin-udeb
Package-Type: udeb
Section: debian-installer
Priority: extra
Architecture: any
Depends: ${misc:Depends}, ${shlibs:Depends}
Description: a game for the installer
 The game, in the installer.

Package: twin-nox
Priority: standard
Architecture: any
Depends: ${misc:Depends}, ${shlibs:Depends}
Conflicts: twin
Description: a game, another flavour
 The game, the other flavour.
CONTROL
	cat >"$1/debian/changelog" <<'CHANGELOG' &&
twin (1.0) unstable; urgency=medium

  * Initial release.

 -- Twin Author <author@example.org>  Mon, 05 Jan 2026 10:00:00 +0000
CHANGELOG
	cat >"$1/debian/rules" <<'RULES' &&
#!/usr/bin/make -f
%:
	dh $@

override_dh_fixperms:
	dh_fixperms -Xgames/twin
	if [ "$$(id -u)" = 0 ]; then chgrp games debian/twin/usr/games/twin; \
	    chmod g+s debian/twin/usr/games/twin; fi
RULES
	chmod 755 "$1/debian/rules" &&
	echo "3.0 (native)" >"$1/debian/source/format" &&
	printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nFiles: *\nCopyright: 2026 Twin Author\nLicense: GPL-3+\n' >"$1/debian/copyright" &&
	for p in twin twin-nox twin-udeb; do
		echo usr/games/twin >"$1/debian/$p.install" || return 1
	done
}

test_expect_success 'convert: the udeb is dropped from the build, Priority extra is optional, each said' '
	make_twin twin &&
	extras-convert twin >convert.out &&
	grep_q "^debian/control:[0-9]*: dropped the udeb twin-udeb from the build (Build-Profiles: <pkg.extras.udeb>): " convert.out &&
	grep_q "^debian/control:3: Priority: extra written as optional" convert.out &&
	grep_q "^debian/control:[0-9]*: Priority: standard written as optional (an extras package is never part of the standard system)" convert.out &&
	test "$(grep -c "written as optional" convert.out)" = 3 &&
	sed -n "/^Package: twin-udeb$/,/^$/p" twin/debian/control >udeb &&
	grep_q "^Build-Profiles: <pkg.extras.udeb>$" udeb &&
	! grep -q "Priority: extra" twin/debian/control &&
	! grep -q "Priority: standard" twin/debian/control &&
	grep_q "^Package: twin-nox$" twin/debian/control &&
	grep_q "^Conflicts: twin$" twin/debian/control
'

test_expect_success 'convert a .dsc: Package-List without the udeb, priorities optional' '
	make_twin dsc/twin &&
	(cd dsc && dpkg-source -b twin >/dev/null) &&
	grep_q "^ twin-udeb udeb debian-installer extra arch=any$" dsc/twin_1.0.dsc &&
	extras-convert -q -o out dsc/twin_1.0.dsc &&
	sed -n "/^Package-List:/,/^[^ ]/p" out/extras-twin_1.0.dsc >list &&
	grep_q "^ extras-twin deb games optional arch=any$" list &&
	grep_q "^ extras-twin-nox deb games optional arch=any$" list &&
	! grep -q udeb list &&
	grep_q "^Binary: extras-twin, extras-twin-nox$" out/extras-twin_1.0.dsc
'

test_expect_success 'build: one profile entry for the program both flavours ship' '
	build_fixture built "$TRASH/twin" || { tail -n 20 built.log; false; } &&
	! grep -q "listed twice" built.log &&
	! ls extras-twin-udeb_* 2>/dev/null &&
	dpkg-deb -x extras-twin_1.0_*.deb x &&
	test "$(grep -c "^#   $NS/games/twin\$" x/etc/apparmor.d/opt.extras.ubuntu.com.twin)" = 1
'

test "$(id -u)" = 0 && test_set_prereq ROOT

test_expect_success 'build: the setgid bit the override kept is cleared, with a warning' '
	grep_q "^dh_extras_apparmor: warning: debian/twin$NS/games/twin: setgid bit removed (mode 2755 -> 0755)" built.log &&
	grep_q "^dh_extras_apparmor: warning: debian/twin-nox$NS/games/twin: setgid bit removed" built.log &&
	dpkg-deb -c extras-twin_1.0_*.deb | grep " \.$NS/games/twin\$" >mode &&
	dpkg-deb -c extras-twin-nox_1.0_*.deb | grep " \.$NS/games/twin\$" >>mode &&
	test "$(grep -c "^-rwxr-xr-x " mode)" = 2
'

# rxvt-unicode: chgrp utmp and chmod g+s after dh_fixperms.  The group
# served only the setgid bit; the gate wants every file root's.
test_expect_success ROOT 'build: the group a setgid program was given is root again, with the bit' '
	grep_q "^dh_extras_apparmor: warning: debian/twin$NS/games/twin: setgid bit removed (mode 2755 -> 0755), owner made root:root: " built.log &&
	grep_q "^dh_extras_apparmor: warning: debian/twin-nox$NS/games/twin: setgid bit removed (mode 2755 -> 0755): " built.log
'

test_expect_success 'review: the store accepts both packages' '
	extras-review extras-twin_1.0_*.deb extras-twin-nox_1.0_*.deb
'

# drop_stanza CONTROL PACKAGE: CONTROL without the stanza of PACKAGE.
drop_stanza () {
	awk -v p="Package: $2" 'BEGIN { RS = ""; ORS = "\n\n" } $0 !~ "(^|\n)" p "(\n|$)"' \
		"$1" >"$1.new" && mv "$1.new" "$1"
}

# As pwgen: one package and its udeb.  Were the udeb stanza gone,
# dh_auto_install would install into debian/extras-solo instead of
# debian/tmp, and debian/extras-solo.install would find nothing.
test_expect_success 'a package and its udeb: the package builds as its maintainer wrote it' '
	make_twin solo &&
	sed -i -e "s/twin/solo/g" solo/debian/control solo/debian/changelog solo/debian/rules &&
	sed -i -e "s,games/solo,games/twin,g" solo/debian/rules &&
	for f in solo/debian/twin*; do mv "$f" "$(echo "$f" | sed s/twin/solo/)" || return 1; done &&
	drop_stanza solo/debian/control solo-nox &&
	rm solo/debian/solo-nox.install &&
	extras-convert -q solo &&
	build_fixture solo-built "$TRASH/solo" || { tail -n 20 solo-built.log; false; } &&
	ls extras-solo_1.0_*.deb &&
	! ls extras-solo-udeb_* 2>/dev/null
'

test_done
