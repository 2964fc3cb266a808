#!/bin/sh
# debian/rules as maintainers write them: the namespace reaches every
# dh_auto_* step whether dh's sequence or an override target runs it,
# with "-- PARAMS", once per build directory; dh_auto_install returns with
# the files under usr/; debian/NAME and $(PACKAGE) reach the renamed
# package.  The package is written for its Debian name and converted by
# extras-convert, as an author's upload is.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com
NS=/$ROOT/tally

# A CMake program built twice, once per build directory, with the
# variant chosen by the maintainer's own -D; it prints its variant and
# the data file it finds through its compiled-in data directory.
make_tally () {
	mkdir -p tally/debian/source &&
	cat >tally/CMakeLists.txt <<-\EOF &&
	cmake_minimum_required(VERSION 3.13)
	project(tally C)
	include(GNUInstallDirs)
	set(TALLY_VARIANT "none" CACHE STRING "the variant built")
	set(TALLY_DATADIR "${CMAKE_INSTALL_FULL_DATADIR}/tally" CACHE PATH "data")
	add_executable(tally tally.c)
	target_compile_definitions(tally PRIVATE
		PKGDATADIR="${TALLY_DATADIR}"
		VARIANT="${TALLY_VARIANT}")
	install(TARGETS tally DESTINATION ${CMAKE_INSTALL_BINDIR})
	install(FILES tally.txt DESTINATION ${TALLY_DATADIR})
	install(FILES dir DESTINATION ${CMAKE_INSTALL_INFODIR})
	EOF
	cat >tally/tally.c <<-\EOF &&
	#include <stdio.h>
	int main(void)
	{
		char line[256];
		FILE *fp = fopen(PKGDATADIR "/tally.txt", "r");

		printf("variant %s\n", VARIANT);
		if (fp == NULL || fgets(line, sizeof(line), fp) == NULL)
			return 1;
		fputs(line, stdout);
		return 0;
	}
	EOF
	echo "one, two, three" >tally/tally.txt &&
	echo "an info directory the package must not ship" >tally/dir &&
	echo "3.0 (native)" >tally/debian/source/format &&
	cat >tally/debian/changelog <<-\EOF &&
	tally (1.0) unstable; urgency=medium

	  * Initial release.

	 -- Tally Author <author@example.org>  Mon, 01 Jan 2024 00:00:00 +0000
	EOF
	cat >tally/debian/control <<-\EOF &&
	Source: tally
	Section: utils
	Priority: optional
	Maintainer: Tally Author <author@example.org>
	Build-Depends: debhelper-compat (= 13), cmake
	Standards-Version: 4.6.2
	Rules-Requires-Root: no

	Package: tally
	Architecture: any
	Depends: ${shlibs:Depends}, ${misc:Depends}
	Description: counts things, built twice
	 Written as real packages are: overrides with parameters, two build
	 directories, its staging directory through a make variable.
	EOF
	printf "%s\n" "#!/usr/bin/make -f" \
		"PACKAGE = tally" \
		"PKGDIR = \$(CURDIR)/debian/\$(PACKAGE)" \
		"" \
		"%:" \
		"	dh \$@" \
		"" \
		"override_dh_auto_configure:" \
		"	dh_auto_configure -- -DTALLY_VARIANT=main -DTALLY_DATADIR=/usr/share/tally" \
		"	dh_auto_configure --builddirectory=build-extra -- -DTALLY_VARIANT=extra" \
		"" \
		"override_dh_auto_build:" \
		"	dh_auto_build" \
		"	dh_auto_build --builddirectory=build-extra" \
		"" \
		"override_dh_auto_install:" \
		"	dh_auto_install" \
		"	mv \$(PKGDIR)/usr/bin/tally \$(PKGDIR)/usr/bin/tally-main" \
		"	install -m 755 build-extra/tally \$(PKGDIR)/usr/bin/tally-extra" \
		"	\$(RM) debian/tally/usr/share/info/dir" \
		"" \
		"override_dh_auto_clean:" \
		"	dh_auto_clean" \
		"	rm -rf build-extra" >tally/debian/rules &&
	chmod +x tally/debian/rules
}

test_expect_success 'the package converts' '
	mkdir src && (cd src && make_tally) &&
	extras-convert src/tally >convert.out &&
	grep_q "extras-tally 1.0 converted" convert.out &&
	grep_q "^	\$(RM) debian/tally/usr/share/info/dir$" src/tally/debian/rules &&
	grep_q "^PKGDIR = \$(CURDIR)/debian/\$(PACKAGE)$" src/tally/debian/rules &&
	! grep -q "renamed" convert.out
'

test_expect_success 'it builds, each override step told the namespace, the maintainer'"'"'s data directory moved' '
	build_fixture tally "$TRASH/src/tally" || { tail -n 40 tally.log; false; } &&
	test "$(grep -c "^dh-extras: cmake: building for $NS" tally.log)" = 2 &&
	grep_q "^dh-extras: -DTALLY_DATADIR=/usr/share/tally becomes -DTALLY_DATADIR=$NS/share/tally$" tally.log &&
	grep_q "cmake .*-DTALLY_VARIANT=main -DTALLY_DATADIR=$NS/share/tally -DCMAKE_INSTALL_PREFIX=$NS " tally.log &&
	grep_q "cmake .*-DTALLY_VARIANT=extra -DCMAKE_INSTALL_PREFIX=$NS " tally.log
'

test_expect_success 'debian/tally was the staging directory, removed by dh clean' '
	grep_q "^   dh_extras_pkgdirs" tally.log &&
	grep_q "^   dh_extras_clean" tally.log &&
	(cd tally && debian/rules clean >/dev/null 2>&1) &&
	test ! -e tally/debian/tally && test ! -e tally/debian/extras-tally
'

test_expect_success 'the maintainer moves and removals after dh_auto_install worked' '
	deb=extras-tally_1.0_*.deb &&
	test -z "$(outside_namespace $deb $NS)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/tally/bin/tally-main$" files &&
	grep_q "^$ROOT/tally/bin/tally-extra$" files &&
	grep_q "^$ROOT/tally/share/tally/tally.txt$" files &&
	! grep -e "bin/tally$" -e "info/dir$" files
'

test_expect_success 'both build directories were compiled for the namespace' '
	in_namespace extras-tally_1.0_*.deb -- sh -c \
		"$NS/bin/tally-main && $NS/bin/tally-extra" >out &&
	printf "variant main\none, two, three\nvariant extra\none, two, three\n" >expect &&
	cmp expect out
'

# A source whose control names extras-tally (converted by an earlier
# dh-extras, or so written) is staged in debian/extras-tally: debian/tally
# reaches it through a link, and a real directory there fails the build.
test_expect_success 'a package named extras-tally: debian/tally a link, a real one refused' '
	rm -rf tally2 && cp -a tally tally2 &&
	sed -i "s/^Package: tally$/Package: extras-tally/" tally2/debian/control &&
	(cd tally2 && dpkg-buildpackage -us -uc -b -d) >tally2.log 2>&1 ||
		{ tail -n 30 tally2.log; false; } &&
	test "$(readlink tally2/debian/tally)" = extras-tally &&
	(cd tally2 && debian/rules clean >/dev/null 2>&1) &&
	test ! -e tally2/debian/tally && test ! -L tally2/debian/tally &&
	mkdir tally2/debian/tally &&
	(cd tally2 && ! dpkg-buildpackage -us -uc -b -d) >tally3.log 2>&1 &&
	grep_q "dh_extras_pkgdirs: error: debian/tally exists and is not a link to extras-tally" tally3.log
'

# A plain Makefile next to a CMakeLists.txt that must not be used: the
# maintainer chose the build system, and installs with prefix= into the
# package directory named through a variable the converter cannot follow
# (set from another), which debian/count, a link, still reaches.
make_count () {
	mkdir -p count/debian/source &&
	printf "%s\n" "prefix ?= /usr/local" \
		"all: count" \
		"count: count.c" \
		"	\$(CC) \$(CFLAGS) -DDATADIR=\\\"\$(prefix)/share/count\\\" -o \$@ count.c" \
		"install:" \
		"	install -D -m 755 count \$(DESTDIR)\$(prefix)/bin/count" \
		"	install -D -m 644 count.txt \$(DESTDIR)\$(prefix)/share/count/count.txt" \
		"clean:" \
		"	rm -f count" >count/Makefile &&
	echo "message(FATAL_ERROR \"the maintainer chose make\")" >count/CMakeLists.txt &&
	cat >count/count.c <<-\EOF &&
	#include <stdio.h>
	int main(void)
	{
		char line[256];
		FILE *fp = fopen(DATADIR "/count.txt", "r");

		if (fp == NULL || fgets(line, sizeof(line), fp) == NULL)
			return 1;
		fputs(line, stdout);
		return 0;
	}
	EOF
	echo "four, five, six" >count/count.txt &&
	echo "3.0 (native)" >count/debian/source/format &&
	sed "s/tally/count/g" tally/debian/changelog >count/debian/changelog &&
	sed -e "s/tally/count/g" -e "s/, cmake$//" tally/debian/control >count/debian/control &&
	printf "%s\n" "#!/usr/bin/make -f" \
		"NAME = count" \
		"BIN = \$(NAME)" \
		"" \
		"%:" \
		"	dh \$@ --buildsystem=makefile" \
		"" \
		"override_dh_auto_install:" \
		"	\$(MAKE) prefix=\$(CURDIR)/debian/\$(BIN)/usr install" >count/debian/rules &&
	chmod +x count/debian/rules
}

test_expect_success 'the build system is the one the maintainer chose' '
	(cd src && make_count) &&
	extras-convert src/count >convert.out &&
	build_fixture count "$TRASH/src/count" || { tail -n 40 count.log; false; } &&
	grep_q "^dh-extras: makefile: building for /$ROOT/count" count.log &&
	grep_q "^	make .*prefix=/$ROOT/count PREFIX=/$ROOT/count\$" count.log &&
	! grep -e "cmake" -e "FATAL_ERROR" count.log
'

test_expect_success 'a prefix= install into debian/$(BIN) reached the renamed package' '
	deb_files extras-count_1.0_*.deb >files &&
	grep_q "^$ROOT/count/bin/count$" files &&
	in_namespace extras-count_1.0_*.deb -- /$ROOT/count/bin/count >out &&
	echo "four, five, six" >expect && cmp expect out
'

test_expect_success 'rules that run ./configure themselves are told where and how to fix it (cmake runs the wrapper)' '
	rm -rf own && cp -a src/count own &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" "" \
		"override_dh_auto_configure:" \
		"	./configure --prefix=/usr --with-x" \
		"	cd build && cmake .." \
		"	\${CURDIR}/configure --with-y" >own/debian/rules &&
	extras-convert own >own.out &&
	grep_q "^debian/rules:6: runs .\./configure. itself, which the namespace does not reach: call .dh_auto_configure -- ARGS. instead" own.out &&
	! grep "runs .cmake. itself" own.out &&
	grep_q "^debian/rules:8: runs .\${CURDIR}/configure. itself" own.out
'

test_expect_success 'an autoconf package whose rules run ./configure gets dh_auto_configure, which the namespace reaches' '
	rm -rf ownconf && cp -a "$TOP/tests/fixtures/greet" ownconf &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" "" \
		"override_dh_auto_configure:" \
		"	./configure --prefix=/usr --datadir=/usr/share \\" \
		"	  --with-demo-libdir=/usr/lib --disable-silent-rules" >ownconf/debian/rules &&
	extras-convert ownconf >ownconf.out &&
	grep_q "^debian/rules:6: .\./configure. written as .dh_auto_configure --., which the namespace reaches" ownconf.out &&
	! grep_q "runs .\./configure. itself" ownconf.out &&
	grep_q "^	dh_auto_configure -- --prefix=/usr --datadir=/usr/share \\\\\$" ownconf/debian/rules &&
	build_fixture ownconf-built "$TRASH/ownconf" || { tail -n 30 ownconf-built.log; false; } &&
	grep_q "dh-extras: --datadir=/usr/share becomes --datadir=/$ROOT/greet/share" ownconf-built.log &&
	! grep "with-demo-libdir=/usr/lib becomes" ownconf-built.log &&
	in_namespace extras-greet_1.0_*.deb -- \
		env LANG=C.UTF-8 LANGUAGE=fr /$ROOT/greet/bin/greet >out &&
	printf "Bonjour de greet !\nThe data file was found.\n" >expect &&
	cmp expect out
'

test_expect_success 'overrides of steps after the relocation name the files where they are then' '
	rm -rf late && cp -a src/count late &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" "" \
		"override_dh_auto_install:" \
		"	dh_auto_install --destdir=debian/count/usr/lib/count" \
		"override_dh_shlibdeps:" \
		"	dh_shlibdeps -X debian/count/usr/lib/\$(DEB_HOST_MULTIARCH)/count/a.so -- \\" \
		"	  -dRecommends debian/count/usr/lib/count/b.so" \
		"execute_after_dh_fixperms-arch:" \
		"	chmod 2755 debian/count/usr/games/count" \
		"	rm -f debian/count/usr/share/doc/count/README.gz" >late/debian/rules &&
	extras-convert late >late.out &&
	NS=opt/extras.ubuntu.com/count &&
	grep_q "^	dh_auto_install --destdir=debian/count/usr/lib/count$" late/debian/rules &&
	grep_q "^	dh_shlibdeps -X debian/count/$NS/lib/\$(DEB_HOST_MULTIARCH)/count/a.so -- " late/debian/rules &&
	grep_q "^	  -dRecommends debian/count/$NS/lib/count/b.so$" late/debian/rules &&
	grep_q "^	chmod 2755 debian/count/$NS/games/count$" late/debian/rules &&
	grep_q "^	rm -f debian/count/usr/share/doc/extras-count/README.gz$" late/debian/rules &&
	grep_q "^debian/rules:11: .usr/games/count. is .$NS/games/count. once dh_extras_relocate has run$" late.out
'

# rxvt-unicode: "PACKAGE_DIR=$(CURDIR)/debian/rxvt-unicode", then
# "chgrp utmp $(PACKAGE_DIR)/usr/bin/urxvt" in override_dh_fixperms-arch.
test_expect_success 'overrides after the relocation, through a variable set to the package directory' '
	rm -rf latevar && cp -a src/count latevar &&
	printf "%s\n" "#!/usr/bin/make -f" "PACKAGE_DIR=\$(CURDIR)/debian/count" "" \
		"%:" "	dh \$@" "" \
		"override_dh_auto_install:" "	\$(MAKE) prefix=\$(PACKAGE_DIR)/usr install" \
		"override_dh_fixperms-arch:" "	dh_fixperms" \
		"	chmod 0700 \$(PACKAGE_DIR)/usr/bin/count" \
		"	chmod 0600 \${PACKAGE_DIR}/usr/share/count/count.txt" >latevar/debian/rules &&
	extras-convert latevar >latevar.out &&
	grep_q "^PACKAGE_DIR=\$(CURDIR)/debian/count$" latevar/debian/rules &&
	grep_q "^	chmod 0700 \$(PACKAGE_DIR)/$ROOT/count/bin/count$" latevar/debian/rules &&
	grep_q "^	\$(MAKE) prefix=\$(PACKAGE_DIR)/usr install$" latevar/debian/rules &&
	grep_q "^debian/rules:11: .usr/bin/count. is .$ROOT/count/bin/count. once dh_extras_relocate has run$" latevar.out &&
	build_fixture latevar-built "$TRASH/latevar" || { tail -n 30 latevar-built.log; false; } &&
	dpkg-deb -c extras-count_1.0_*.deb >list &&
	grep_q "^-rwx------ .* \./$ROOT/count/bin/count$" list &&
	grep_q "^-rw------- .* \./$ROOT/count/share/count/count.txt$" list
'

# nano: update-alternatives' slave "editor.1.gz" became a .links line to
# nano.1.gz, which dh_compress makes only in usr/share/; the page moved
# to the namespace before and stayed nano.1, and the link dangled.
test_expect_success 'manual pages in the namespace are compressed, and links to them by either name resolve' '
	rm -rf man && cp -a src/count man &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" "" \
		"override_dh_auto_install:" \
		"	\$(MAKE) prefix=\$(CURDIR)/debian/count/usr install" \
		"	install -D -m 644 count.1 debian/count/usr/share/man/man1/count.1" \
		"	ln -s count.1 debian/count/usr/share/man/man1/upstream.1" >man/debian/rules &&
	printf ".TH COUNT 1\n.SH NAME\ncount \\- counts\n" >man/count.1 &&
	printf "%s\n" "usr/share/man/man1/count.1.gz usr/share/man/man1/tally.1.gz" \
		"usr/share/man/man1/count.1 usr/share/man/man1/plain.1" >man/debian/count.links &&
	extras-convert man >man.out &&
	build_fixture man-built "$TRASH/man" || { tail -n 30 man-built.log; false; } &&
	rm -rf x && dpkg-deb -x extras-count_1.0_*.deb x &&
	m=x/$ROOT/count/share/man/man1 &&
	ls $m >list && printf "%s\n" count.1.gz plain.1.gz tally.1.gz upstream.1.gz >expect &&
	cmp expect list &&
	test "$(readlink $m/tally.1.gz)" = count.1.gz &&
	test "$(readlink $m/plain.1.gz)" = count.1.gz &&
	test "$(readlink $m/upstream.1.gz)" = count.1.gz &&
	for p in count tally plain upstream; do
		zcat $m/$p.1.gz | grep -q "^count .- counts$" || return 1
	done &&
	test "$(stat -c %a $m/count.1.gz)" = 644
'

test_expect_success 'a link the upstream install makes and debian/PKG.links makes again is one link, in the namespace' '
	rm -rf alias && cp -a src/count alias &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@ --buildsystem=makefile" "" \
		"override_dh_auto_install:" \
		"	\$(MAKE) prefix=\$(CURDIR)/debian/count/usr install" \
		"	ln -s count debian/count/usr/bin/tally" >alias/debian/rules &&
	echo "usr/bin/count usr/bin/tally" >alias/debian/count.links &&
	extras-convert alias >alias.out &&
	build_fixture alias-built "$TRASH/alias" || { tail -n 30 alias-built.log; false; } &&
	dpkg-deb -c extras-count_1.0_*.deb >list &&
	grep_q " \./$ROOT/count/bin/tally -> count\$" list &&
	! grep_q " \./usr/bin/" list &&
	in_namespace extras-count_1.0_*.deb -- /$ROOT/count/bin/tally >out &&
	echo "four, five, six" >expect && cmp expect out
'

# wget: debian/rules runs the debhelper commands itself, without dh, so
# dh-sequence-extras never reached it and nothing was relocated.
test_expect_success 'a debian/rules without dh gets the helpers, and its package runs from the namespace' '
	rm -rf classic && cp -a src/count classic &&
	printf "%s\n" "#!/usr/bin/make -f" \
		"build: build-arch build-indep" \
		"build-arch build-indep:" "	\$(MAKE) prefix=/usr" \
		"clean:" "	dh_testdir" "	\$(MAKE) clean" "	dh_clean" \
		"binary-indep:" \
		"binary-arch: build" "	dh_testroot" "	dh_prep" \
		"	\$(MAKE) prefix=\$(CURDIR)/debian/count/usr install" \
		"	dh_installdocs -a" "	dh_link -a" "	dh_strip -a" \
		"	dh_compress -a" "	dh_fixperms -a" "	dh_installdeb -a" \
		"	dh_shlibdeps -a" "	dh_gencontrol -a" "	dh_md5sums -a" \
		"	dh_builddeb -a" \
		"binary: binary-indep binary-arch" \
		".PHONY: build build-arch build-indep clean binary binary-arch binary-indep" \
		>classic/debian/rules &&
	extras-convert classic >classic.out &&
	grep_q "^debian/rules:15: runs the debhelper commands without dh" classic.out &&
	grep_q "^	dh_extras_relocate -a$" classic/debian/rules &&
	grep_q "^	dh_extras_check -a$" classic/debian/rules &&
	grep_q "^	\$(MAKE) prefix=/$ROOT/count$" classic/debian/rules &&
	build_fixture classic-built "$TRASH/classic" || { tail -n 30 classic-built.log; false; } &&
	deb_files extras-count_1.0_*.deb >files &&
	grep_q "^$ROOT/count/bin/count$" files &&
	! grep_q "^usr/bin/" files &&
	extras-review extras-count_1.0_*.deb &&
	in_namespace extras-count_1.0_*.deb -- /$ROOT/count/bin/count >out &&
	echo "four, five, six" >expect && cmp expect out
'

# findutils: "dh_auto_configure -- --localstatedir=/var/cache/locate",
# then debian/locate.install names var/cache/locate/; the namespace's
# --localstatedir came after the maintainer's and won.
test_expect_success 'a directory the maintainer gives configure keeps its place in the namespace' '
	rm -rf state && cp -a "$TOP/tests/fixtures/greet" state &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" "" \
		"override_dh_auto_configure:" \
		"	dh_auto_configure -- --localstatedir=/var/lib/greet" \
		>state/debian/rules &&
	extras-convert state >state.out &&
	build_fixture state-built "$TRASH/state" || { tail -n 30 state-built.log; false; } &&
	grep_q "dh-extras: --localstatedir=/var/lib/greet becomes --localstatedir=/$ROOT/greet/var/lib/greet" state-built.log &&
	grep "^  \$ \./configure " "$TRASH/state-built/config.log" >line &&
	grep_q " --localstatedir=/$ROOT/greet/var/lib/greet --prefix=/$ROOT/greet --sysconfdir=/$ROOT/greet/etc\$" line
'

test_expect_success 'a debian/rules without dh that runs dh_auto_* itself gets the add-on'"'"'s, which build for the namespace' '
	rm -rf classicauto && cp -a "$TOP/tests/fixtures/greet" classicauto &&
	printf "%s\n" "#!/usr/bin/make -f" \
		"build: build-arch build-indep" \
		"build-arch build-indep:" "	dh_autoreconf" "	dh_auto_configure" \
		"	dh_auto_build" \
		"clean:" "	dh_auto_clean" "	dh_autoreconf_clean" "	dh_clean" \
		"binary-indep:" \
		"binary-arch: build" "	dh_prep" "	dh_auto_install" \
		"	dh_installdocs" "	dh_link" "	dh_compress" "	dh_fixperms" \
		"	dh_installdeb" "	dh_shlibdeps" "	dh_gencontrol" "	dh_md5sums" \
		"	dh_builddeb" \
		"binary: binary-indep binary-arch" \
		".PHONY: build build-arch build-indep clean binary binary-arch binary-indep" \
		>classicauto/debian/rules &&
	extras-convert classicauto >classicauto.out &&
	grep_q "^debian/rules:2: PATH starts with the add-on" classicauto.out &&
	build_fixture classicauto-built "$TRASH/classicauto" || { tail -n 30 classicauto-built.log; false; } &&
	grep_q "^dh-extras: autoconf: building for /$ROOT/greet" classicauto-built.log &&
	extras-review extras-greet_1.0_*.deb &&
	in_namespace extras-greet_1.0_*.deb -- \
		env LANG=C.UTF-8 LANGUAGE=fr /$ROOT/greet/bin/greet >out &&
	printf "Bonjour de greet !\nThe data file was found.\n" >expect &&
	cmp expect out
'

# zsh: "/bin/zsh /bin/rzsh"; merged-/usr makes /bin an alias of /usr/bin.
# recode: a program in one package, its library in another of the source.
# dh_extras_relocate gives the program the RUNPATH $ORIGIN/../lib/ARCH,
# which dpkg-shlibdeps followed only within the program's own package.
make_ratio () {
	mkdir -p ratio/debian/source &&
	printf "%s\n" "prefix ?= /usr/local" \
		"libdir = \$(prefix)/lib/\$(shell dpkg-architecture -qDEB_HOST_MULTIARCH)" \
		"all: ratio" \
		"libratio.so.1: ratio-lib.c" \
		"	\$(CC) \$(CFLAGS) -fPIC -shared -Wl,-soname,libratio.so.1 -o \$@ ratio-lib.c" \
		"ratio: ratio.c libratio.so.1" \
		"	ln -sf libratio.so.1 libratio.so" \
		"	\$(CC) \$(CFLAGS) -o \$@ ratio.c -L. -lratio" \
		"install:" \
		"	install -D -m 644 libratio.so.1 \$(DESTDIR)\$(libdir)/libratio.so.1" \
		"	install -D -m 755 ratio \$(DESTDIR)\$(prefix)/bin/ratio" \
		"clean:" \
		"	rm -f ratio libratio.so libratio.so.1" >ratio/Makefile &&
	printf "%s\n" "double ratio_of(int a, int b) { return (double)a / b; }" \
		>ratio/ratio-lib.c &&
	printf "%s\n" "#include <stdio.h>" "double ratio_of(int, int);" \
		"int main(void) { printf(\"3/4 = %.2f\\n\", ratio_of(3, 4)); return 0; }" \
		>ratio/ratio.c &&
	echo "3.0 (native)" >ratio/debian/source/format &&
	sed "s/tally/ratio/g" tally/debian/changelog >ratio/debian/changelog &&
	sed -e "s/tally/ratio/g" -e "s/, cmake$//" tally/debian/control >ratio/debian/control &&
	printf "%s\n" "" "Package: libratio1" "Section: libs" "Architecture: any" \
		"Depends: \${shlibs:Depends}, \${misc:Depends}" \
		"Description: divides things" " The library of ratio." \
		>>ratio/debian/control &&
	echo "usr/bin/ratio" >ratio/debian/ratio.install &&
	echo "usr/lib/*/libratio.so.*" >ratio/debian/libratio1.install &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@ --buildsystem=makefile" "" \
		"override_dh_auto_install:" "	dh_auto_install -- prefix=/usr" \
		>ratio/debian/rules &&
	chmod +x ratio/debian/rules
}

test_expect_success 'a program finds its library in another package of the source, and dh_shlibdeps too' '
	(cd src && make_ratio) &&
	extras-convert src/ratio >ratio.out &&
	build_fixture ratio-built "$TRASH/src/ratio" || { tail -n 30 ratio-built.log; false; } &&
	dpkg-deb -f extras-ratio_1.0_*.deb Depends >depends &&
	grep_q "extras-libratio1 " depends &&
	deb_files extras-libratio1_1.0_*.deb >files &&
	grep_q "^$ROOT/ratio/lib/[^/]*/libratio.so.1$" files &&
	in_namespace extras-ratio_1.0_*.deb extras-libratio1_1.0_*.deb -- \
		/$ROOT/ratio/bin/ratio >out &&
	echo "3/4 = 0.75" >expect && cmp expect out
'

test_expect_success 'a link debian/PKG.links makes in /bin lands in the namespace, and resolves' '
	rm -rf binlink && cp -a src/count binlink &&
	echo "/bin/count /bin/tally" >binlink/debian/count.links &&
	extras-convert binlink >binlink.out &&
	build_fixture binlink-built "$TRASH/binlink" || { tail -n 30 binlink-built.log; false; } &&
	dpkg-deb -c extras-count_1.0_*.deb >list &&
	grep_q " \./$ROOT/count/bin/tally -> count\$" list &&
	! grep_q " \./bin/" list &&
	in_namespace extras-count_1.0_*.deb -- /$ROOT/count/bin/tally >out &&
	echo "four, five, six" >expect && cmp expect out
'

# The add-on's sequence is data (templates/addon/sequence), read by the
# add-on for dh and by extras-convert for a rules without dh.  A rules
# running dh's own commands one by one (as dh prints them, with their
# options), converted, runs the extras helpers where dh with the add-on
# does and dh's own commands with the options the add-on gives them, in
# dh binary and in dh clean.  Left out: -a and -i, which dh adds to
# arch-dependent commands only; dh_auto_*, the add-on's own in both
# (their PATH), dh_auto_install running dh_extras_unprefix itself; and
# dh_dwz, removed from dh's sequence but left in a classic rules, told
# --no-dwz-multifile.
commands () {
	sed -n "s/^[ 	]*\(dh_.*\)/\1/p" "$@" |
		sed -e "s/ -[ai]\( \|\$\)/\1/g" -e "/^dh_auto_/d"
}

test_expect_success 'a classic rules gets the extras helpers and options where dh --with extras has them' '
	rm -rf seqdh seqclassic && cp -R "$TOP/tests/fixtures/greet" seqdh &&
	for seq in binary clean; do
		(cd seqdh && dh $seq --no-act --without extras) >plain-$seq.out &&
		(cd seqdh && dh $seq --no-act --with extras) >extras-$seq.out ||
			return 1
	done &&
	commands extras-binary.out extras-clean.out >expect &&
	grep_q "^dh_strip --no-automatic-dbgsym\$" expect &&
	grep_q "^dh_extras_clean\$" expect &&
	cp -R seqdh seqclassic &&
	{ printf "#!/usr/bin/make -f\n" &&
	  for seq in binary clean; do
		echo "$seq:" &&
		sed -n "s/^ *\(dh_.*\)/\t\1/p" plain-$seq.out || return 1
	  done; } >seqclassic/debian/rules &&
	extras-convert seqclassic >seq.out &&
	commands seqclassic/debian/rules | sed "/^dh_dwz /d" >actual &&
	diff -u expect actual
'

test_done
