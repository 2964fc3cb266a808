#!/bin/sh
# extras-convert on real packages from the archive (apt-get source): the
# .dsc path and the in-place path agree, and dpkg-source accepts both.
# Skipped when the archive's sources cannot be fetched.
. "$TOP/tests/lib.sh"

# The packages: hello (Conflicts/Replaces/Breaks on other packages) and
# cowsay (two binaries with relations between them).
PACKAGES="hello cowsay"

for pkg in $PACKAGES; do
	mkdir -p "$TRASH/$pkg"
	if ! (cd "$TRASH/$pkg" && apt-get source -qq --download-only "$pkg") \
		>"$TRASH/$pkg.fetch" 2>&1; then
		test_skip "$pkg: convert the archive's source package" \
			"apt-get source $pkg failed (no deb-src or no network)"
		continue
	fi
	dsc=$(ls "$TRASH/$pkg"/*.dsc)

	test_expect_success "$pkg: the .dsc converts and dpkg-source -x accepts it" "
		cd $pkg &&
		extras-convert -q --privileges x11 -o out \"$dsc\" &&
		dpkg-source -x out/extras-*.dsc from-dsc >/dev/null 2>&1 &&
		grep_q '^Source: extras-$pkg\$' from-dsc/debian/control &&
		grep_q dh-sequence-extras from-dsc/debian/control
	"

	test_expect_success "$pkg: the upstream tarball is reused byte for byte" "
		cd $pkg &&
		for orig in ${pkg}_*.orig.tar.*; do
			cmp \"\$orig\" \"out/extras-\$orig\" || exit 1
		done
	"

	test_expect_success "$pkg: it equals the in-place conversion of the original" "
		cd $pkg &&
		dpkg-source -x \"$dsc\" in-place >/dev/null 2>&1 &&
		extras-convert -q --privileges x11 in-place &&
		diff -r in-place from-dsc
	"

	test_expect_success "$pkg: a second run changes nothing" "
		cd $pkg &&
		cp -a in-place again && extras-convert -q again &&
		diff -r in-place again
	"

	test_expect_success "$pkg: the same input gives the same bytes" "
		cd $pkg &&
		extras-convert -q --privileges x11 -o out2 \"$dsc\" &&
		for f in out/*; do cmp \"\$f\" \"out2/\${f#out/}\" || exit 1; done
	"

	test_expect_success "$pkg: dpkg-source -b builds the converted tree" "
		cd $pkg && mkdir rebuild && cp out/*.orig.* rebuild/ &&
		cp -a in-place rebuild/tree &&
		(cd rebuild && dpkg-source -b tree >/dev/null 2>&1) &&
		ls rebuild/extras-${pkg}_*.dsc
	"

	if [ ! -f "$TOP/dh-extras/Debian/Debhelper/Sequence/extras.pm" ]; then
		test_skip "$pkg: dpkg-buildpackage builds it" \
			"the debhelper add-on is not there yet"
	elif ! (cd "$TRASH/$pkg/in-place" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
		test_skip "$pkg: dpkg-buildpackage builds it" \
			"build dependencies of $pkg are not installed"
	else
		test_expect_success "$pkg: dpkg-buildpackage builds it" "
			cd $pkg/in-place &&
			dpkg-buildpackage -us -uc -b >../build.log 2>&1 &&
			ls ../extras-${pkg}_*.deb
		"
	fi
done

test_done
