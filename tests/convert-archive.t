#!/bin/sh
# extras-convert on real packages from the archive (apt-get source): the
# .dsc path and the in-place path agree, dpkg-source accepts both, and the
# result builds with the add-on and runs from its namespace.
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

	# On one CPU too: the debian tarball is compressed on two threads.
	test_expect_success "$pkg: the same input gives the same bytes" "
		cd $pkg &&
		taskset -c 0 extras-convert -q --privileges x11 -o out2 \"$dsc\" &&
		for f in out/*; do cmp \"\$f\" \"out2/\${f#out/}\" || exit 1; done
	"

	test_expect_success "$pkg: dpkg-source -b builds the converted tree" "
		cd $pkg && mkdir rebuild && cp out/*.orig.* rebuild/ &&
		cp -a in-place rebuild/tree &&
		(cd rebuild && dpkg-source -b tree >/dev/null 2>&1) &&
		ls rebuild/extras-${pkg}_*.dsc
	"

	# The converted package build-depends on dh-sequence-extras, which is
	# this tree rather than an installed package: check the original's
	# build dependencies, and build the conversion without checking.
	if ! (dpkg-source -x "$dsc" "$TRASH/$pkg/original" &&
	      cd "$TRASH/$pkg/original" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
		test_skip "$pkg: dpkg-buildpackage builds it" \
			"build dependencies of $pkg are not installed"
		test_skip "$pkg: its program runs from the namespace" \
			"not built"
		continue
	fi
	test_expect_success "$pkg: dpkg-buildpackage builds it" "
		cd $pkg/in-place &&
		dpkg-buildpackage -us -uc -b -d >../build.log 2>&1 ||
			{ tail -n 30 ../build.log; false; } &&
		ls ../extras-${pkg}_*.deb
	"
	test_expect_success "$pkg: its program runs from the namespace" "
		cd $pkg && rm -rf ns && mkdir ns &&
		for deb in extras-*.deb; do dpkg-deb -x \$deb ns || return 1; done &&
		case $pkg in
		hello) run='LANG=C.UTF-8 LANGUAGE=fr /opt/extras.ubuntu.com/hello/bin/hello'
		       want='Bonjour, le monde' ;;
		cowsay) run='/opt/extras.ubuntu.com/cowsay/games/cowsay -f tux moo'
		       want='< moo >' ;;
		esac &&
		unshare_m sh -c \"mkdir -p /opt && mount -t tmpfs tmpfs /opt && cp -a ns/opt/. /opt/ && \$run\" >run.out &&
		grep_q \"\$want\" run.out
	"
done

test_done
