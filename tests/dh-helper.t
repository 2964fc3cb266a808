#!/bin/sh
# The dh_extras_* helpers follow debhelper's conventions: package
# selection, -v, --no-act, -O, and the DH_* environment.

. "$TOP/tests/lib.sh"

# A source with an arch-dependent, an arch-independent and a package
# restricted to another architecture, each with a staged tree.
test_expect_success 'set up a source with three binary packages' '
	mkdir -p src/debian && cd src &&
	cat >debian/control <<-\EOS &&
	Source: extras-multi
	Maintainer: A <a@example.org>

	Package: extras-multi
	Architecture: any
	Description: x
	 x

	Package: extras-multi-data
	Architecture: all
	Description: x
	 x

	Package: extras-multi-other
	Architecture: some-unknown-arch
	Description: x
	 x

	Package: extras-multi-nocheck
	Architecture: all
	Build-Profiles: <!nocheck>
	Description: x
	 x
	EOS
	for p in extras-multi extras-multi-data extras-multi-other extras-multi-nocheck; do
		mkdir -p debian/$p/usr/share/$p && echo x >debian/$p/usr/share/$p/file
	done
'

# acted_on ARGS...: the packages a -v --no-act run names, sorted.
acted_on () {
	(cd src && dh_extras_relocate --no-act "$@") |
		sed -n "s/^\textras-rewrite --app multi --root [^ ]*//p" |
		tr " " "\n" | sed -n "s,^debian/,,p" | sort | tr "\n" " "
}

test_expect_success 'all packages that build here, by default' '
	test "$(acted_on)" = "extras-multi extras-multi-data extras-multi-nocheck "
'

test_expect_success '-a and -i' '
	test "$(acted_on -a)" = "extras-multi " &&
	test "$(acted_on -i)" = "extras-multi-data extras-multi-nocheck " &&
	test "$(acted_on --arch)" = "extras-multi " &&
	test "$(acted_on --indep)" = "extras-multi-data extras-multi-nocheck "
'

test_expect_success '-p and -N, in their spellings' '
	test "$(acted_on -pextras-multi-data)" = "extras-multi-data " &&
	test "$(acted_on -p extras-multi --package=extras-multi-data)" = "extras-multi extras-multi-data " &&
	test "$(acted_on -Nextras-multi)" = "extras-multi-data extras-multi-nocheck " &&
	test "$(acted_on --no-package=extras-multi-data -N extras-multi-nocheck)" = "extras-multi "
'

test_expect_success 'a package for another architecture is never acted on' '
	test "$(acted_on -p extras-multi-other)" = ""
'

test_expect_success 'Build-Profiles are honoured' '
	test "$(DEB_BUILD_PROFILES=nocheck acted_on -i)" = "extras-multi-data "
'

test_expect_success 'DH_OPTIONS and DH_INTERNAL_OPTIONS select too' '
	test "$(DH_OPTIONS=-i acted_on)" = "extras-multi-data extras-multi-nocheck " &&
	test "$(DH_INTERNAL_OPTIONS="-a" acted_on)" = "extras-multi " &&
	test "$(DH_INTERNAL_OPTIONS="-pextras-multi-data" acted_on -N extras-multi-data)" = ""
'

test_expect_success '-O options of other helpers are ignored, ours applied' '
	test "$(acted_on -O--buildsystem=cmake -O-i)" = "extras-multi-data extras-multi-nocheck "
'

test_expect_success 'an unknown option is refused; in DH_OPTIONS only warned about' '
	(cd src && expect_status 2 dh_extras_relocate --frobnicate 2>err) &&
	grep_q "^dh_extras_relocate: error: unknown option" src/err &&
	(cd src && DH_OPTIONS=--frobnicate dh_extras_relocate --no-act 2>err >/dev/null) &&
	grep_q "warning: ignored unknown option" src/err
'

test_expect_success 'an unknown -p package is an error' '
	(cd src && expect_status 2 dh_extras_relocate -p nosuch 2>err) &&
	grep_q "requested unknown package nosuch" src/err
'

test_expect_success '--no-act and DH_NO_ACT change nothing' '
	(cd src && find debian | sort) >before &&
	(cd src && dh_extras_relocate --no-act >/dev/null && DH_NO_ACT=1 dh_extras_relocate >/dev/null) &&
	(cd src && find debian | sort) >after && cmp before after
'

test_expect_success '-v shows the command; DH_QUIET hides the summary' '
	(cd src && dh_extras_relocate -v -pextras-multi-data >out) &&
	grep_q "^	extras-rewrite --app multi" src/out &&
	test -f src/debian/extras-multi-data/opt/extras.ubuntu.com/multi/share/extras-multi-data/file &&
	(cd src && DH_QUIET=1 dh_extras_relocate -pextras-multi >out) &&
	test ! -s src/out
'

test_expect_success '--print-namespace follows debian/extras.yaml' '
	test "$(cd src && dh_extras_relocate --print-namespace)" = /opt/extras.ubuntu.com/multi &&
	printf "app: multi\nroot: /opt/other\n" >src/debian/extras.yaml &&
	test "$(cd src && dh_extras_relocate --print-namespace)" = /opt/other/multi
'

test_expect_success 'dh_extras_unprefix brings an install under the namespace back to usr/' '
	rm -f src/debian/extras.yaml &&
	mkdir -p src/debian/tmp/opt/extras.ubuntu.com/multi/bin \
		src/debian/tmp/opt/extras.ubuntu.com/multi/etc \
		src/debian/tmp/usr/share/doc &&
	touch src/debian/tmp/opt/extras.ubuntu.com/multi/bin/multi \
		src/debian/tmp/opt/extras.ubuntu.com/multi/etc/multi.conf &&
	(cd src && dh_extras_unprefix) &&
	test -f src/debian/tmp/usr/bin/multi && test -f src/debian/tmp/etc/multi.conf &&
	test -d src/debian/tmp/usr/share/doc && test ! -e src/debian/tmp/opt
'

test_expect_success 'dh_extras_unprefix refuses to follow a symlink out of the tree' '
	rm -rf src/debian/tmp && mkdir -p src/debian/tmp && ln -s / src/debian/tmp/opt &&
	(cd src && expect_status 2 dh_extras_unprefix 2>err) &&
	grep_q "^dh_extras_unprefix: error: debian/tmp/opt: is not a directory" src/err &&
	rm src/debian/tmp/opt
'

test_expect_success 'a hostile declaration stops the helper with file and line' '
	printf "app: multi\nroot: /opt/x,y\n" >src/debian/extras.yaml &&
	(cd src && expect_status 2 dh_extras_relocate --print-namespace 2>err) &&
	grep_q "^dh_extras_relocate: error: debian/extras.yaml:2" src/err
'

test_done
