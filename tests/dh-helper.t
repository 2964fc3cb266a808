#!/bin/sh
# The dh_extras_* helpers follow debhelper's conventions: package
# selection (as dh_listpackages makes it), -v, --no-act, -O, -P, -n, -X,
# --remaining-packages and the DH_* environment.

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
		mkdir -p debian/$p/usr/share/$p &&
		echo x >debian/$p/usr/share/$p/file || return 1
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

test_expect_success '--remaining-packages skips those whose log has the helper' '
	echo dh_extras_relocate >src/debian/extras-multi-data.debhelper.log &&
	echo dh_extras_apparmor >src/debian/extras-multi.debhelper.log &&
	test "$(acted_on --remaining-packages)" = "extras-multi extras-multi-nocheck " &&
	test "$(acted_on --remaining-packages -i)" = "extras-multi-nocheck " &&
	test "$(acted_on)" = "extras-multi extras-multi-data extras-multi-nocheck " &&
	rm src/debian/extras-multi-data.debhelper.log src/debian/extras-multi.debhelper.log
'

# Package selection is debhelper's own: the same packages as
# dh_listpackages for the same options and build profiles, on a source
# with packages for any, all, the host only, another architecture, and
# for or against a profile.
test_expect_success 'set up a source with restricted packages' '
	mkdir -p sel/debian && cd sel &&
	host=$(dpkg-architecture -qDEB_HOST_ARCH) &&
	cat >debian/control <<-EOS &&
	Source: extras-sel
	Maintainer: A <a@example.org>
	Build-Depends: debhelper-compat (= 13)

	Package: extras-sel
	Architecture: any
	Description: x
	 x

	Package: extras-sel-data
	Architecture: all
	Description: x
	 x

	Package: extras-sel-host
	Architecture: $host
	Description: x
	 x

	Package: extras-sel-linux
	Architecture: linux-any
	Description: x
	 x

	Package: extras-sel-foreign
	Architecture: hurd-any kfreebsd-any
	Description: x
	 x

	Package: extras-sel-gui
	Architecture: any
	Build-Profiles: <pkg.extras-sel.gui>
	Description: x
	 x

	Package: extras-sel-doc
	Architecture: all
	Build-Profiles: <!nodoc>
	Description: x
	 x

	Package: extras-sel-tests
	Architecture: any
	Build-Profiles: <!nocheck !pkg.extras-sel.notests>
	Description: x
	 x
	EOS
	for p in $(sed -n "s/^Package: //p" debian/control); do
		mkdir -p debian/$p/usr/share/$p &&
		echo x >debian/$p/usr/share/$p/file || return 1
	done
'

# selected ARGS...: what dh_extras_relocate acts on, sorted, one a line.
selected () {
	(cd sel && dh_extras_relocate --no-act "$@") |
		sed -n "s/^\textras-rewrite --app sel --root [^ ]*//p" |
		tr " " "\n" | sed -n "s,^debian/,,p" | sort
}

# same_as_listpackages ARGS...: the helper selects what dh_listpackages
# lists for ARGS.
same_as_listpackages () {
	(cd sel && dh_listpackages "$@") | sort >expected &&
	selected "$@" >actual &&
	if ! cmp -s expected actual; then
		echo "dh_listpackages $*:" $(cat expected) >&2
		echo "dh_extras_relocate $*:" $(cat actual) >&2
		return 1
	fi
}

for profiles in "" nocheck nodoc "pkg.extras-sel.gui" "pkg.extras-sel.notests nodoc"; do
	test_expect_success "selection as dh_listpackages, profiles '$profiles'" '
		export DEB_BUILD_PROFILES="$profiles" &&
		same_as_listpackages &&
		same_as_listpackages -a &&
		same_as_listpackages -i &&
		same_as_listpackages -a -i &&
		same_as_listpackages -p extras-sel-data -p extras-sel-gui &&
		same_as_listpackages -a -N extras-sel-host &&
		same_as_listpackages -N extras-sel -N extras-sel-doc &&
		same_as_listpackages -p extras-sel-foreign &&
		same_as_listpackages --arch -p extras-sel-data
	'
done

test_expect_success 'DH_OPTIONS narrows as it does for dh_listpackages' '
	(export DH_OPTIONS=-i && same_as_listpackages) &&
	(export DH_OPTIONS="-N extras-sel" && same_as_listpackages -a)
'

test_expect_success '-P: the build directory of the one package acted on' '
	mkdir -p src/debian/elsewhere/usr/share/extras-multi-data &&
	echo x >src/debian/elsewhere/usr/share/extras-multi-data/file &&
	(cd src && dh_extras_relocate -v -pextras-multi-nocheck -Pdebian/elsewhere >out) &&
	grep_q "^	extras-rewrite --app multi --root /opt/extras.ubuntu.com debian/elsewhere\$" src/out &&
	test -f src/debian/elsewhere/opt/extras.ubuntu.com/multi/share/extras-multi-data/file &&
	test -f src/debian/extras-multi-nocheck/usr/share/extras-multi-nocheck/file &&
	(cd src && dh_extras_relocate --no-act --tmpdir=debian/elsewhere -p extras-multi-nocheck >out) &&
	grep_q " debian/elsewhere\$" src/out
'

test_expect_success '-X: matching files move, their contents are left alone' '
	d=src/debian/extras-multi-nocheck/usr/share/extras-multi-nocheck &&
	echo "data=/usr/share/extras-multi-nocheck/file" >$d/patched.conf &&
	echo "data=/usr/share/extras-multi-nocheck/file" >$d/kept.conf &&
	(cd src && dh_extras_relocate -pextras-multi-nocheck -X kept.conf) &&
	n=src/debian/extras-multi-nocheck/opt/extras.ubuntu.com/multi/share/extras-multi-nocheck &&
	grep_q "^data=/opt/extras.ubuntu.com/multi/share/extras-multi-nocheck/file\$" $n/patched.conf &&
	grep_q "^data=/usr/share/extras-multi-nocheck/file\$" $n/kept.conf
'

test_expect_success '-n, -X and -P are accepted by every helper and through DH_OPTIONS' '
	(cd src && dh_extras_metainfo -n -Xfoo --exclude=bar -P debian/none --no-act) &&
	(cd src && DH_OPTIONS="-n -Xfoo" dh_extras_metainfo --no-act 2>err) &&
	test ! -s src/err
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
