# lib.sh: TAP helpers for the shell integration tests, in the manner of
# git's test-lib.sh.  Source it, call test_expect_success for each step,
# and end with test_done.
#
# Each test file gets a fresh scratch directory in $TRASH, removed on exit
# unless KEEP_TRASH is set.

set -u

: "${TOP:?run the tests through make check}"
: "${BUILDDIR:?run the tests through make check}"

test_count=0
test_failures=0

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/dh-extras-test.XXXXXX")
if [ -z "${KEEP_TRASH:-}" ]; then
	trap 'rm -rf "$TRASH"' EXIT
fi
cd "$TRASH" || exit 1

# Prerequisites, as git's test-lib has them: test_set_prereq NAME once
# what a group of tests needs is there; a test naming a missing one prints
# a TAP skip of its own.
test_prereqs=" "
test_set_prereq () {
	test_prereqs="$test_prereqs$1 "
}
test_have_prereq () {
	case $test_prereqs in *" $1 "*) return 0 ;; esac
	return 1
}

# test_expect_success [PREREQ,...] NAME COMMANDS: run COMMANDS in a
# subshell with -e and print one TAP line; on failure, show what the
# commands printed.  Without every PREREQ, print a skip instead.
test_expect_success () {
	if [ $# = 3 ]; then
		test_missing=
		for test_p in $(echo "$1" | tr , " "); do
			test_have_prereq "$test_p" ||
				test_missing="$test_missing${test_missing:+,}$test_p"
		done
		shift
		if [ -n "$test_missing" ]; then
			test_skip "$1" "missing $test_missing"
			return 0
		fi
	fi
	test_count=$((test_count + 1))
	# A statement of its own: in an if's condition (or before && or ||)
	# the shell ignores set -e, in the subshell too.
	(set -e; eval "$2") >"$TRASH/.out" 2>&1
	test_status=$?
	if [ "$test_status" = 0 ]; then
		echo "ok $test_count - $1"
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out"
	fi
}

# test_setup WHAT COMMAND...: a file's shared setup, run in this shell
# (its variables last) outside any test; a failure stops the whole file
# with TAP's "Bail out!", so no test runs on a setup that went wrong.
test_setup () {
	what=$1 && shift &&
	if ! "$@" >"$TRASH/.setup" 2>&1; then
		echo "Bail out! setup failed: $what"
		sed 's/^/#   /' "$TRASH/.setup"
		exit 1
	fi
}

# test_skip NAME REASON
test_skip () {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

test_done () {
	echo "1..$test_count"
	[ "$test_failures" -eq 0 ]
}

# expect_status N COMMAND...: run COMMAND, fail unless it exits N.
expect_status () {
	want=$1; shift
	set +e
	"$@"
	got=$?
	set -e
	if [ "$got" -ne "$want" ]; then
		echo "expected exit status $want from '$*', got $got" >&2
		return 1
	fi
}

# grep_q PATTERN FILE: grep -q that shows the file when it fails.
grep_q () {
	if ! grep -q -e "$1" "$2"; then
		echo "'$1' not found in $2:" >&2
		sed 's/^/| /' "$2" >&2
		return 1
	fi
}

# build_fixture NAME [DIR]: copy the fixture source package
# tests/fixtures/NAME (or DIR) to $TRASH/NAME and build its binary packages
# with the uninstalled add-on; the log is $TRASH/NAME.log, the .debs land
# in $TRASH.  Build dependencies are not checked (-d): dh-sequence-extras
# is this tree, not an installed package.
build_fixture () {
	rm -rf "$TRASH/$1" && cp -a "${2:-$TOP/tests/fixtures/$1}" "$TRASH/$1" &&
	(cd "$TRASH/$1" && dpkg-buildpackage -us -uc -b -d) >"$TRASH/$1.log" 2>&1
}

# deb_files DEB: the paths a .deb ships, one a line, without "./".
deb_files () {
	dpkg-deb --fsys-tarfile "$1" | tar -t | sed -e 's,^\./,,' -e '/^$/d'
}

# outside_namespace DEB ROOT/APP: what DEB ships outside the namespace
# other than the allowed exports (empty when all is well).
outside_namespace () {
	deb_files "$1" | grep -v -e "^${2#/}/" -e "^${2#/}\$" \
		-e '^opt/$' -e '^opt/extras.ubuntu.com/$' \
		-e '^usr/$' -e '^usr/share/$' -e '^usr/share/doc/' \
		-e '^usr/share/applications/$' -e '^usr/share/applications/extras-.*\.desktop$' \
		-e '^usr/share/icons/' -e '^usr/share/pixmaps/$' -e '^usr/share/pixmaps/extras-' \
		-e '^usr/share/dbus-1/$' -e '^usr/share/dbus-1/services/' \
		-e '^usr/share/metainfo/$' -e '^usr/share/metainfo/extras-' \
		-e '^usr/share/lintian/' -e '^etc/$' -e '^etc/apparmor.d/' ||
		test $? = 1
}

# unshare_m COMMAND...: COMMAND in a mount namespace of its own.  Where
# "/" is no mount point (a chroot, such as autopkgtest's unshare testbed)
# unshare cannot make it private: there the enclosing mount namespace is
# the testbed's own, and propagation is left as it is.
unshare_m () {
	if mountpoint -q /; then
		unshare -m "$@"
	else
		unshare -m --propagation unchanged "$@"
	fi
}

# in_scratch_system DIR CMD...: run CMD as root in this system seen
# through a private mount namespace, with /usr, /etc, /var and /opt as
# overlays whose changes go to DIR and stay there for the next call:
# dpkg installs and purges for real without touching the system or
# waiting for its lock, which apt or a corpus run may hold for minutes.
in_scratch_system () {
	s=$(cd "$1" && pwd) && shift &&
	unshare_m sh -c '
		s=$1; shift
		for d in usr etc var opt; do
			mkdir -p "$s/$d.upper" "$s/$d.work" &&
			mount -t overlay overlay \
				-o "lowerdir=/$d,upperdir=$s/$d.upper,workdir=$s/$d.work" "/$d" ||
				exit 1
		done
		exec "$@"' sh "$s" "$@"
}

# in_namespace DEB... -- CMD...: run CMD with the packages' namespaces
# mounted at /opt in a private mount namespace, as if installed.
in_namespace () {
	rm -rf ns && mkdir ns &&
	while [ "$1" != -- ]; do
		dpkg-deb -x "$1" ns && shift || return 1
	done &&
	shift &&
	unshare_m sh -c 'mkdir -p /opt && mount -t tmpfs tmpfs /opt && cp -a ns/opt/. /opt/ && exec "$@"' sh "$@"
}
