#!/bin/sh
# Build systems the maintainer's own way: a plain Makefile's own names for
# its directories, cmake and meson run by hand in an override.

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

# by_hand FIXTURE NAME RULES: FIXTURE copied as NAME with its debian/rules
# replaced by RULES (printf format), built.
by_hand () {
	rm -rf "src-$2" && cp -a "$TOP/tests/fixtures/$1" "src-$2" &&
	printf "$3" >"src-$2/debian/rules" &&
	build_fixture "$2" "$PWD/src-$2"
}

test_expect_success 'cmake by hand in an override: built for the namespace' '
	by_hand tune tune-by-hand "#!/usr/bin/make -f\n%%:\n\tdh \$@\n\noverride_dh_auto_configure:\n\tmkdir -p obj && cd obj && cmake -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_LIBDIR=/usr/lib/tune ..\n\noverride_dh_auto_build:\n\t\$(MAKE) -C obj\n\noverride_dh_auto_install:\n\t\$(MAKE) -C obj install DESTDIR=\$(CURDIR)/debian/extras-tune\n\noverride_dh_auto_test:\n\noverride_dh_auto_clean:\n\trm -rf obj\n" ||
		{ tail -n 30 tune-by-hand.log; false; } &&
	grep_q "^dh-extras: cmake run by the recipe: building for /$ROOT/tune$" tune-by-hand.log &&
	grep_q "CMAKE_INSTALL_PREFIX:PATH=/$ROOT/tune$" tune-by-hand/obj/CMakeCache.txt &&
	grep_q "CMAKE_INSTALL_LIBDIR:PATH=/$ROOT/tune/lib/tune$" tune-by-hand/obj/CMakeCache.txt &&
	deb=$(echo extras-tune_1.0_*.deb) &&
	test -z "$(outside_namespace $deb /$ROOT/tune)" &&
	in_namespace $deb -- env LANG=C.UTF-8 LANGUAGE=fr /$ROOT/tune/bin/tune >out &&
	printf "On joue un air.\nla la la\n" >expect &&
	cmp expect out
'

test_expect_success 'meson by hand in an override: built for the namespace' '
	by_hand bells bells-by-hand "#!/usr/bin/make -f\n%%:\n\tdh \$@\n\noverride_dh_auto_configure:\n\tmeson setup --prefix=/usr --buildtype=plain obj\n\noverride_dh_auto_build:\n\tninja -C obj\n\noverride_dh_auto_install:\n\tDESTDIR=\$(CURDIR)/debian/extras-bells meson install -C obj\n\noverride_dh_auto_test:\n\noverride_dh_auto_clean:\n\trm -rf obj\n" ||
		{ tail -n 30 bells-by-hand.log; false; } &&
	grep_q "^dh-extras: meson run by the recipe: building for /$ROOT/bells$" bells-by-hand.log &&
	deb=$(echo extras-bells_1.0_*.deb) &&
	test -z "$(outside_namespace $deb /$ROOT/bells)" &&
	in_namespace $deb -- env LANG=C.UTF-8 LANGUAGE=fr \
		GSETTINGS_SCHEMA_DIR=/$ROOT/bells/share/glib-2.0/schemas /$ROOT/bells/bin/bells >out &&
	echo "On sonne la cloche silver." >expect && cmp expect out
'

test_expect_success 'cmake and meson: other runs, and a prefix outside /usr, pass through' '
	mkdir -p fake && for t in cmake meson; do
		printf "#!/bin/sh\necho \"\$0 \$*\"\n" >fake/$t && chmod +x fake/$t || return 1
	done &&
	mkdir -p top/debian && (cd top && touch debian/rules debian/control) &&
	fake=$PWD/fake &&
	(cd top && DH_EXTRAS_NAMESPACE=/$ROOT/x PATH="$DH_EXTRAS_AUTODIR:$fake:$PATH" sh -c "
		cmake --build obj; cmake -E echo hi; cmake -DCMAKE_INSTALL_PREFIX=/tmp/t ..;
		meson compile -C obj; meson setup -Dprefix=/tmp/t obj; meson obj -Dprefix=/usr;
		meson setup --libdir lib/x obj --sysconfdir /etc") >out &&
	cat >expect <<-EOF &&
	$PWD/fake/cmake --build obj
	$PWD/fake/cmake -E echo hi
	$PWD/fake/cmake -DCMAKE_INSTALL_PREFIX=/tmp/t ..
	$PWD/fake/meson compile -C obj
	$PWD/fake/meson setup -Dprefix=/tmp/t obj
	dh-extras: meson run by the recipe: building for /$ROOT/x
	$PWD/fake/meson obj -Dprefix=/$ROOT/x --sysconfdir=/$ROOT/x/etc --localstatedir=/$ROOT/x/var
	dh-extras: meson run by the recipe: building for /$ROOT/x
	$PWD/fake/meson setup --libdir lib/x obj --sysconfdir /$ROOT/x/etc --prefix=/$ROOT/x --localstatedir=/$ROOT/x/var
	EOF
	cmp expect out
'

test_done
