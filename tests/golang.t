#!/bin/sh
# Go: a program built by dh-golang ("dh $@ --buildsystem=golang", a
# Makefile in the tree that debhelper must not pick) with a compiled-in
# data path.  Go strings are a pointer and a length with no terminator:
# relocation can neither grow one nor trust what follows it, so a path
# compiled in for /usr fails the build, naming the Go constant and the
# patch that fixes it; with that patch (the fixture's debian/patches) the
# program reads its data from the namespace.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com
NS=/$ROOT/gopher

if command -v go >/dev/null &&
   perl -MDebian::Debhelper::Buildsystem::golang -e 1 2>/dev/null; then
	test_set_prereq GOLANG
fi

# One build cache for both builds: the standard library is compiled once.
GOCACHE="$TRASH/go-cache"
export GOCACHE

test_expect_success GOLANG 'dh-golang builds it, the Makefile in the tree notwithstanding' '
	build_fixture gopher || { tail -n 30 gopher.log; false; } &&
	grep_q "^dpkg-source: info: applying namespace-datadir.patch" gopher.log &&
	grep_q "^dh-extras: the golang build system cannot be told the namespace: relying on relocation$" gopher.log &&
	grep_q "go install -trimpath -v .*example.org/gopher$" gopher.log &&
	! grep -q "^	make " gopher.log
'

test_expect_success GOLANG 'every file is in the namespace' '
	deb=extras-gopher_1.0-1_*.deb &&
	test -z "$(outside_namespace $deb $NS)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/gopher/bin/gopher$" files &&
	grep_q "^$ROOT/gopher/share/gopher/greeting.txt$" files &&
	! grep -q "^usr/share/gocode" files
'

test_expect_success GOLANG 'run from the namespace, it reads its data there' '
	in_namespace extras-gopher_1.0-1_*.deb -- $NS/bin/gopher >out &&
	echo "Hello from the gopher." >expect && cmp expect out
'

test_expect_success GOLANG 'extras-review accepts it' '
	extras-review extras-gopher_1.0-1_*.changes >review.out &&
	grep_q "extras-gopher 1.0-1 accepted" review.out
'

# Without the patch the program has /usr/share/gopher compiled in, right
# before the next string's bytes: found, and the build fails.
test_expect_success GOLANG 'without the patch the build fails, naming the Go constant and the fix' '
	rm -f extras-gopher_* &&
	cp -a "$TOP/tests/fixtures/gopher" unpatched-src &&
	rm -r unpatched-src/debian/patches &&
	! build_fixture unpatched "$TRASH/unpatched-src" &&
	grep_q "^dh_extras_relocate: error: $NS/bin/gopher: offset [0-9]*: ./usr/share/gopher.: a Go string (its length is compiled into the code): the new path is 25 bytes longer and cannot be patched in place$" unpatched.log &&
	grep_q "^dh_extras_relocate: error: ./usr/share/gopher. is set in the source: main.go:9: Go constant dataDir: patch it (debian/patches) to $NS/share/gopher$" unpatched.log &&
	test "$(grep -c "is set in the source" unpatched.log)" = 1 &&
	! ls extras-gopher_*.deb 2>/dev/null
'

test_done
