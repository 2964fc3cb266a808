#!/bin/sh
# Names at the package's edge: the maintainer's build runs under the
# package names debian/control gives, and each package takes its extras
# name in the control file and .deb the build writes.

. "$TOP/tests/lib.sh"

NS=opt/extras.ubuntu.com/tally

test_expect_success 'the converted source keeps the binary packages. names' '
	rm -rf conv && cp -a "$TOP/tests/fixtures/tally" conv &&
	extras-convert --privileges "" conv >convert.out &&
	grep_q "^Source: extras-tally$" conv/debian/control &&
	grep_q "^Package: tally$" conv/debian/control &&
	grep_q "^Package: libtally1$" conv/debian/control &&
	grep_q "^Depends: libtally1 (= \${binary:Version})" conv/debian/control &&
	test -f conv/debian/tally.install && test -f conv/debian/libtally1.install &&
	grep_q "test -x debian/tally/$NS/bin/tally" conv/debian/rules
'

test_expect_success 'the build computes from the maintainer.s names and succeeds' '
	build_fixture tally "$PWD/conv" || { tail -n 30 tally.log; false; }
'

test_expect_success 'each .deb has its extras name, and so do its relations' '
	test "$(dpkg-deb -f extras-tally_1.0_all.deb Package)" = extras-tally &&
	test "$(dpkg-deb -f extras-tally_1.0_all.deb Source)" = "" &&
	test "$(dpkg-deb -f extras-libtally1_1.0_all.deb Package)" = extras-libtally1 &&
	test "$(dpkg-deb -f extras-libtally1_1.0_all.deb Source)" = extras-tally &&
	dpkg-deb -f extras-tally_1.0_all.deb Depends >depends &&
	grep_q "^extras-libtally1 (= 1.0)" depends &&
	! ls tally_* libtally1_* 2>/dev/null
'

test_expect_success 'the .changes lists the extras names' '
	grep_q "^Binary: extras-libtally1 extras-tally$" extras-tally_1.0_*.changes &&
	grep_q " extras-tally_1.0_all.deb$" extras-tally_1.0_*.changes &&
	grep_q "listed in files list but not in control info" tally.log
'

test_expect_success 'the documentation and the exports have extras names' '
	deb_files extras-tally_1.0_all.deb >files &&
	grep_q "^usr/share/doc/extras-tally/copyright$" files &&
	! grep -q "^usr/share/doc/tally" files &&
	grep_q "^usr/share/applications/extras-tally.desktop$" files &&
	deb_files extras-libtally1_1.0_all.deb >libfiles &&
	grep_q "^usr/share/doc/extras-libtally1/copyright$" libfiles &&
	grep_q "^$NS/share/tally/rules.txt$" libfiles &&
	test -z "$(outside_namespace extras-tally_1.0_all.deb /$NS)"
'

test_expect_success 'the desktop entry written at build time runs the program, which finds its data' '
	in_namespace extras-tally_1.0_all.deb extras-libtally1_1.0_all.deb -- sh -c "
		exec \$(sed -n s/^Exec=//p ns/usr/share/applications/extras-tally.desktop)" >run.out &&
	grep_q "^Name=Tally$" ns/usr/share/applications/extras-tally.desktop &&
	echo "One sheep, two sheep." >expect && cmp expect run.out
'

test_expect_success 'dh clean and a second build work under the same names' '
	(cd tally && dpkg-buildpackage -us -uc -b -d) >again.log 2>&1 ||
		{ tail -n 30 again.log; false; } &&
	(cd tally && debian/rules clean) >clean.log 2>&1 &&
	test ! -e tally/debian/tally.desktop && test ! -e tally/debian/tally
'

test_expect_success 'a converted .dsc lists the packages by their extras names' '
	rm -rf src && cp -a "$TOP/tests/fixtures/tally" src &&
	dpkg-source -b src >/dev/null &&
	extras-convert --privileges "" -o out tally_1.0.dsc >dsc.out &&
	grep_q "^Binary: extras-tally, extras-libtally1$" out/extras-tally_1.0.dsc &&
	grep_q "^ extras-tally deb utils optional arch=all$" out/extras-tally_1.0.dsc &&
	grep_q "^ extras-libtally1 deb utils optional arch=all$" out/extras-tally_1.0.dsc
'

test_done
