#!/bin/sh
# A plain Makefile's own names for its directories, and paths the
# relocation cannot see in the binary.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com

test_expect_success 'plain Makefile: INSTALLDIR, DATADIR and BINDIR get the namespace' '
	build_fixture flock || { tail -n 30 flock.log; false; } &&
	grep_q "^dh-extras: makefile: INSTALLDIR = /usr/lib/flock becomes INSTALLDIR=/$ROOT/flock/lib/flock$" flock.log &&
	grep_q "^dh-extras: makefile: DATADIR = /usr/share/flock becomes DATADIR=/$ROOT/flock/share/flock$" flock.log &&
	grep_q "^dh-extras: makefile: BINDIR = /usr/bin becomes BINDIR=/$ROOT/flock/bin$" flock.log &&
	grep_q "make .* prefix=/$ROOT/flock PREFIX=/$ROOT/flock BINDIR=/$ROOT/flock/bin DATADIR=/$ROOT/flock/share/flock INSTALLDIR=/$ROOT/flock/lib/flock$" flock.log &&
	grep_q "dh_extras_relocate: .* 0 unpatched" flock.log
'

test_expect_success 'plain Makefile: installed as usual, every file in the namespace' '
	deb=$(echo extras-flock_1.0_*.deb) &&
	test -z "$(outside_namespace $deb /$ROOT/flock)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/flock/bin/flock$" files &&
	grep_q "^$ROOT/flock/lib/flock/plugins/wool.plugin$" files &&
	grep_q "^$ROOT/flock/share/flock/flock.txt$" files
'

test_expect_success 'plain Makefile: the program reads its data and finds its plugins' '
	in_namespace extras-flock_1.0_*.deb -- /$ROOT/flock/bin/flock >out &&
	printf "Twelve sheep.\nplugin: wool.plugin\n" >expect &&
	cmp expect out
'

test_expect_success 'plain Makefile: a directory the maintainer passes stays theirs' '
	rm -rf given && cp -a "$TOP/tests/fixtures/flock" given &&
	printf "\noverride_dh_auto_build:\n\tdh_auto_build -- DATADIR=/$ROOT/flock/share/flock\n" \
		>>given/debian/rules &&
	build_fixture flock-given "$PWD/given" || { tail -n 30 flock-given.log; false; } &&
	! grep "DATADIR = /usr/share/flock becomes" flock-given.log &&
	grep_q "make .* DATADIR=/$ROOT/flock/share/flock prefix=/$ROOT/flock PREFIX=/$ROOT/flock BINDIR=/$ROOT/flock/bin INSTALLDIR=/$ROOT/flock/lib/flock$" flock-given.log
'

test_done
