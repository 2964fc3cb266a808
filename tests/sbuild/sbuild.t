#!/bin/sh
# make check-sbuild: the path every store build takes, as a build daemon
# takes it.  The project's own .deb is built from a copy of this tree;
# sbuild then builds converted sources in a clean buildd chroot where
# nothing but their Build-Depends and that .deb is installed (which proves
# that dh-extras' Depends are complete), and extras-review accepts what
# it built.
#
# Needs: mmdebstrap, sbuild and uidmap (installed here when missing and
# run as root), the build dependencies of dh-extras, and Debian's archive.
# As root, sbuild runs as $SBUILD_USER (default "sbuilder"), made a system
# user with subordinate uid/gid ranges if there is none; otherwise as the
# calling user, who needs such ranges in /etc/subuid and /etc/subgid.
#
# The chroot tarball is kept in $SBUILD_CACHE (default
# /var/tmp/dh-extras-sbuild), outside the repository, and reused: sbuild
# updates it as it unpacks it.  SBUILD_REFRESH=1 makes it anew.

. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"

DIST=${SBUILD_DIST:-bookworm}
CACHE=${SBUILD_CACHE:-/var/tmp/dh-extras-sbuild}
TARBALL=$CACHE/$DIST.tar
# Each step's bound, in seconds: a package build, the chroot, a download.
BUILD_TIMEOUT=${SBUILD_BUILD_TIMEOUT:-1800}
CHROOT_TIMEOUT=${SBUILD_CHROOT_TIMEOUT:-1200}
FETCH_TIMEOUT=${SBUILD_FETCH_TIMEOUT:-600}
APT="apt-get -o DPkg::Lock::Timeout=600 -q"

# bounded SECONDS COMMAND...: COMMAND niced and ended after SECONDS.
bounded () {
	secs=$1 &&
	shift &&
	timeout -k 30 "$secs" nice "$@"
}

# The mirror apt uses here for DIST (deb822 or one-line sources), else
# Debian's.
mirror () {
	{
		# No .sources file is no error.
		{ cat /etc/apt/sources.list.d/*.sources 2>/dev/null ||
			test $? = 1; } &&
		echo
	} | awk -v dist="$DIST" '
		/^[[:space:]]*$/ {
			if (deb && suite && uri != "") { print uri; exit }
			deb = suite = 0; uri = ""; next
		}
		/^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == dist) suite = 1 }
		/^URIs:/ { uri = $2 }' >"$TRASH/mirror" &&
	# awk's 2 is a list file missing, after reading the others.
	{ [ -s "$TRASH/mirror" ] ||
		awk -v dist="$DIST" '$1 == "deb" && $0 !~ /\[/ && $3 == dist { print $2; exit }' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
			2>/dev/null >"$TRASH/mirror" || test $? = 2; } &&
	if [ -s "$TRASH/mirror" ]; then
		cat "$TRASH/mirror"
	else
		echo http://deb.debian.org/debian
	fi
}

# as_builder SECONDS COMMAND...: run COMMAND, bounded, as the user who
# runs sbuild, in a clean environment (as a build daemon would).
as_builder () {
	secs=$1 &&
	shift &&
	if [ "$(id -u)" = 0 ]; then
		bounded "$secs" runuser -u "$BUILDER" -- env -i HOME="$BUILDER_HOME" \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"
	else
		bounded "$secs" env -i HOME="$HOME" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			LANG=C.UTF-8 "$@"
	fi
}

# show_log LOG: the end of a failed step's log, in the test's output.
show_log () {
	echo "--- last lines of $1:" >&2
	tail -n 40 "$1" >&2
	return 1
}

# sbuild_one DIR DSC: build DSC in DIR with sbuild, as a build daemon,
# with this tree's dh-extras installed in the chroot; architecture-
# independent packages too.
sbuild_one () {
	(cd "$1" && as_builder "$BUILD_TIMEOUT" sbuild \
		--chroot-mode=unshare --chroot="$TARBALL" -d "$DIST" \
		--arch-all --no-run-lintian --no-run-piuparts \
		--no-run-autopkgtest --extra-package="$DEB" "$2" \
		>"$1/sbuild.log" 2>&1 </dev/null) || show_log "$1/sbuild.log"
}

test_expect_success 'the tools and a build user with subordinate ids' '
	missing= &&
	for t in mmdebstrap:mmdebstrap sbuild:sbuild newuidmap:uidmap; do
		if ! command -v "${t%%:*}" >/dev/null; then
			missing="$missing ${t#*:}"
		fi || return 1
	done &&
	if [ -n "$missing" ]; then
		test "$(id -u)" = 0 &&
		bounded "$FETCH_TIMEOUT" $APT install -y $missing
	fi &&
	if [ "$(id -u)" = 0 ]; then
		BUILDER=${SBUILD_USER:-sbuilder} &&
		if ! getent passwd "$BUILDER" >/dev/null; then
			useradd --system --create-home --home-dir "/var/lib/$BUILDER" \
				--shell /bin/sh "$BUILDER"
		fi &&
		if ! grep -q "^$BUILDER:" /etc/subuid ||
		   ! grep -q "^$BUILDER:" /etc/subgid; then
			usermod --add-subuids 1065536-1131071 \
				--add-subgids 1065536-1131071 "$BUILDER"
		fi &&
		BUILDER_HOME=$(getent passwd "$BUILDER" | cut -d: -f6) &&
		echo "BUILDER=$BUILDER BUILDER_HOME=$BUILDER_HOME" >"$TRASH/builder"
	else
		grep -q "^$(id -un):" /etc/subuid && grep -q "^$(id -un):" /etc/subgid &&
		echo "BUILDER=$(id -un) BUILDER_HOME=$HOME" >"$TRASH/builder"
	fi
'
test -f "$TRASH/builder" && . "$TRASH/builder" && test_set_prereq BUILDER

# The build user reads and writes under the scratch directory.
mkdir -p "$TRASH/work"
if [ "$(id -u)" = 0 ] && test_have_prereq BUILDER; then
	chmod 755 "$TRASH" && chown "$BUILDER:" "$TRASH/work"
fi

test_expect_success 'dh-extras builds as a Debian package' '
	mkdir dh-extras &&
	(cd "$TOP" && tar --exclude=./build --exclude=./.git -cf - .) |
		tar -C dh-extras -xf - &&
	(cd dh-extras && bounded "$BUILD_TIMEOUT" dpkg-buildpackage -us -uc -b \
		>../dh-extras.log 2>&1 </dev/null) || show_log dh-extras.log &&
	cp dh-extras_*.deb work/ &&
	echo "DEB=$(ls "$TRASH"/work/dh-extras_*.deb)" >"$TRASH/deb"
'
test -f "$TRASH/deb" && . "$TRASH/deb" && test_set_prereq DEB

test_expect_success BUILDER "a buildd chroot of $DIST, made or reused" '
	if [ -n "${SBUILD_REFRESH:-}" ] || [ ! -s "$TARBALL" ]; then
		mkdir -p "$CACHE" &&
		if [ "$(id -u)" = 0 ]; then chown "$BUILDER:" "$CACHE"; fi &&
		rm -f "$CACHE/$DIST.new.tar" &&
		as_builder "$CHROOT_TIMEOUT" mmdebstrap --variant=buildd \
			--mode=unshare "$DIST" "$CACHE/$DIST.new.tar" "$(mirror)" \
			>mmdebstrap.log 2>&1 </dev/null || show_log mmdebstrap.log &&
		mv "$CACHE/$DIST.new.tar" "$TARBALL"
	fi &&
	tar -tf "$TARBALL" ./usr/bin/dpkg-buildpackage >/dev/null
'
test -s "$TARBALL" && test_set_prereq CHROOT

# Converted sources: the inline fixture of the converter tests (two
# binaries, debian/rules overrides, files extras-convert renames), and
# the CMake fixture, whose build system gets the namespace through the
# add-on's dh_auto_* wrappers.
test_expect_success BUILDER 'fixtures converted into source packages' '
	mkdir -p src && make_fixture src/greet && cp -a "$TOP/tests/fixtures/tune" src/ &&
	for f in greet tune; do
		extras-convert --privileges x11 src/$f >convert-$f.log 2>&1 ||
			show_log convert-$f.log || exit 1
		(cd src/$f && dpkg-source -b . >../../source-$f.log 2>&1) ||
			show_log source-$f.log || exit 1
		mkdir -p work/$f && mv src/extras-${f}_* work/$f/ || exit 1
	done &&
	if [ "$(id -u)" = 0 ]; then chown -R "$BUILDER:" work; fi &&
	ls work/greet/extras-greet_1.0.dsc work/tune/extras-tune_1.0.dsc
'

test_expect_success BUILDER 'a real archive package converted: hello' '
	mkdir -p "$CACHE/src/hello" &&
	if ! ls "$CACHE"/src/hello/hello_*.dsc >/dev/null 2>&1; then
		(cd "$CACHE/src/hello" &&
		 bounded "$FETCH_TIMEOUT" apt-get source --download-only hello \
			>"$TRASH/fetch.log" 2>&1 </dev/null) || show_log fetch.log
	fi &&
	dsc=$(ls "$CACHE"/src/hello/hello_*.dsc | sort -V | tail -n 1) &&
	mkdir -p work/hello &&
	extras-convert -o work/hello "$dsc" >convert-hello.log 2>&1 ||
		show_log convert-hello.log &&
	if [ "$(id -u)" = 0 ]; then chown -R "$BUILDER:" work/hello; fi &&
	ls work/hello/extras-hello_*.dsc
'

for pkg in greet tune hello; do
	test_expect_success DEB,CHROOT "sbuild builds extras-$pkg in a clean chroot" '
		sbuild_one "$TRASH/work/$pkg" "$(ls work/$pkg/extras-${pkg}_*.dsc | xargs -n1 basename)" &&
		ls work/$pkg/extras-${pkg}_*.changes
	'
	test_expect_success DEB,CHROOT "extras-review accepts extras-$pkg" '
		extras-review work/$pkg/extras-${pkg}_*.changes >review-$pkg.log 2>&1 ||
			show_log review-$pkg.log &&
		grep_q "extras-$pkg .* accepted" review-$pkg.log
	'
	test_expect_success DEB,CHROOT "lintian with the dh-extras profile passes extras-$pkg" '
		lintian --no-cfg --include-dir "$TOP/lintian" --profile dh-extras \
			--fail-on error work/$pkg/extras-${pkg}_*.changes >lintian-$pkg.log 2>&1 ||
			show_log lintian-$pkg.log &&
		! grep -e dir-or-file-in-opt -e unknown-control-file lintian-$pkg.log
	'
done

test_expect_success DEB,CHROOT 'the architecture-independent package was built too' '
	ls work/greet/extras-greet-data_1.0_all.deb
'

test_done
