#!/bin/sh
# The add-on's knowledge is data, written once: templates/addon/sequence
# says where the helpers go in dh's sequence, templates/addon/buildsystems
# how each build system is told the namespace.  A change there reaches dh
# with the add-on, the add-on's dh_auto_* and cmake, and extras-convert's
# rewrite of a debian/rules without dh alike; a malformed line stops each
# of them with its file and line.

. "$TOP/tests/lib.sh"

AUTO=${DH_EXTRAS_AUTODIR:-/usr/share/dh-extras/auto}
NS=/opt/extras.ubuntu.com/noact

# A copy of the data directory, whose templates/addon/ the tests change.
test_expect_success 'a package with a Makefile, and a copy of the data' '
	mkdir -p pkg/debian wrap &&
	printf "all:\n\ninstall:\n" >pkg/Makefile &&
	printf "%s\n" "Source: noact" "Maintainer: A <a@example.org>" \
		"Build-Depends: debhelper-compat (= 13)" "" "Package: noact" \
		"Architecture: all" "Description: no act" " Nothing." >pkg/debian/control &&
	printf "%s\n" "noact (1.0) unstable; urgency=medium" "" "  * New." "" \
		" -- A <a@example.org>  Mon, 01 Jan 2024 00:00:00 +0000" >pkg/debian/changelog &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" >pkg/debian/rules &&
	chmod +x pkg/debian/rules &&
	mkdir data &&
	cp -R "${DH_EXTRAS_DATADIR:-/usr/share/dh-extras}/templates" data/ &&
	cp data/templates/addon/sequence sequence.orig &&
	cp data/templates/addon/buildsystems buildsystems.orig &&
	printf "#!/bin/sh\necho cmake \"\$@\"\n" >wrap/cmake &&
	chmod +x wrap/cmake
'

# A copy of the package with a rules without dh, converted: its recipe
# lines into $1, tab and "-a" gone.
classic () {
	rm -rf conv && cp -R pkg conv &&
	printf "%s\n" "#!/usr/bin/make -f" "build:" \
		"	\$(MAKE) prefix=/usr LIBPREFIX=/usr/lib" "binary:" \
		"	dh_prep -a" "	dh_installdocs -a" "	dh_installman -a" \
		"	dh_link -a" "	dh_installdeb -a" "	dh_builddeb -a" \
		>conv/debian/rules &&
	DH_EXTRAS_DATADIR="$TRASH/data" extras-convert conv >convert.out &&
	sed -n "s/^	//p" conv/debian/rules | sed "s/ -a\$//" >"$1"
}

test_expect_success 'a helper and an option added to the sequence run where dh runs them, in a rules without dh too' '
	printf "%s\n" "insert dh_extras_more after dh_installdocs" \
		"option dh_installman --more" >>data/templates/addon/sequence &&
	(cd pkg && DH_EXTRAS_DATADIR="$TRASH/data" \
		dh binary --no-act --with extras) >dh.out &&
	grep -A1 "^ *dh_installdocs\$" dh.out >after &&
	grep_q "^ *dh_extras_more\$" after &&
	grep_q "^ *dh_installman --more\$" dh.out &&
	classic rules &&
	grep -A1 "^dh_installdocs\$" rules >after &&
	grep_q "^dh_extras_more\$" after &&
	grep_q "^dh_installman --more\$" rules &&
	cp sequence.orig data/templates/addon/sequence
'

test_expect_success 'a parameter added to a build system reaches dh_auto_build and a rules without dh' '
	sed -i "s,^makefile build .*,& LIBPREFIX=%NS%/lib," \
		data/templates/addon/buildsystems &&
	(cd pkg && DH_EXTRAS_DATADIR="$TRASH/data" PATH="$AUTO:$PATH" \
		dh_auto_build --no-act) >build.out &&
	grep_q "^	make .* prefix=$NS PREFIX=$NS LIBPREFIX=$NS/lib\$" build.out &&
	classic rules &&
	grep_q "^\$(MAKE) prefix=$NS LIBPREFIX=$NS/lib\$" rules &&
	cp buildsystems.orig data/templates/addon/buildsystems
'

test_expect_success 'cmake run by a recipe gets the parameters of the data' '
	mkdir -p pkg/build &&
	(cd pkg/build && DH_EXTRAS_DATADIR="$TRASH/data" \
		PATH="$AUTO:$TRASH/wrap:$PATH" cmake ..) >cmake.out &&
	grep_q "^cmake \.\. -DCMAKE_INSTALL_PREFIX=$NS -DCMAKE_INSTALL_SYSCONFDIR=$NS/etc -DCMAKE_INSTALL_LOCALSTATEDIR=$NS/var\$" cmake.out &&
	sed -i "s,^cmake configure .*,& -DCMAKE_INSTALL_RUNSTATEDIR=%NS%/run," \
		data/templates/addon/buildsystems &&
	(cd pkg/build && DH_EXTRAS_DATADIR="$TRASH/data" \
		PATH="$AUTO:$TRASH/wrap:$PATH" cmake .. -DCMAKE_INSTALL_SYSCONFDIR=/etc) >cmake.out &&
	grep_q "^cmake \.\. -DCMAKE_INSTALL_SYSCONFDIR=$NS/etc -DCMAKE_INSTALL_PREFIX=$NS -DCMAKE_INSTALL_LOCALSTATEDIR=$NS/var -DCMAKE_INSTALL_RUNSTATEDIR=$NS/run\$" cmake.out &&
	cp buildsystems.orig data/templates/addon/buildsystems
'

test_expect_success 'a malformed line of the sequence stops dh and extras-convert with its file and line' '
	n=$(($(wc -l <sequence.orig) + 1)) &&
	echo "insert dh_extras_more beside dh_link" >>data/templates/addon/sequence &&
	msg="data/templates/addon/sequence:$n: not .insert HELPER before|after COMMAND.\$" &&
	! (cd pkg && DH_EXTRAS_DATADIR="$TRASH/data" \
		dh binary --no-act --with extras) >dh.out 2>&1 &&
	grep_q "dh-extras: $TRASH/$msg" dh.out &&
	rm -rf conv && cp -R pkg conv &&
	! DH_EXTRAS_DATADIR="$TRASH/data" extras-convert conv >convert.out 2>&1 &&
	grep_q "^extras-convert: error: $TRASH/$msg" convert.out &&
	cp sequence.orig data/templates/addon/sequence
'

test_expect_success 'a malformed line of the build systems stops dh_auto_build and extras-convert' '
	n=$(($(wc -l <buildsystems.orig) + 1)) &&
	echo "makefile test prefix=/usr" >>data/templates/addon/buildsystems &&
	msg="data/templates/addon/buildsystems:$n: .prefix=/usr. is not NAME=%NS% or NAME=%NS%/DIR\$" &&
	! (cd pkg && DH_EXTRAS_DATADIR="$TRASH/data" PATH="$AUTO:$PATH" \
		dh_auto_build --no-act) >build.out 2>&1 &&
	grep_q "dh-extras: $TRASH/$msg" build.out &&
	rm -rf conv && cp -R pkg conv &&
	! DH_EXTRAS_DATADIR="$TRASH/data" extras-convert conv >convert.out 2>&1 &&
	grep_q "^extras-convert: error: $TRASH/$msg" convert.out &&
	cp buildsystems.orig data/templates/addon/buildsystems
'

test_done
