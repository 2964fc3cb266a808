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

# test_expect_success NAME COMMANDS: run COMMANDS in a subshell with -e
# and print one TAP line; on failure, show what the commands printed.
test_expect_success () {
	test_count=$((test_count + 1))
	if (set -e; eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out"
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
