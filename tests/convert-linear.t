#!/bin/sh
# The converter's work grows linearly with what an uploader sends: each of
# the four big inputs of convert-big.sh (a relation field, debian/rules,
# debian/control, a debian tarball of many members) converted at a size
# and at twice that size.  The work is the instructions extras-convert
# executes, counted by valgrind: the same on every run, where a time is
# not on a shared machine.  Less the work of the fixture as it is, twice
# the input may cost at most 2.5 times the work; a step quadratic in the
# input costs 4.  The sizes are small to keep this fast; bench/convert.sh
# times the full sizes.
. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/convert-big.sh"

# valgrind cannot run a build made with AddressSanitizer (SANITIZE=1).
command -v valgrind >/dev/null &&
	! ldd "$(command -v extras-convert)" | grep -q libasan &&
	test_set_prereq VALGRIND

test_setup 'the fixture and the generator' big_setup

# work: the instructions of extras-convert on greet_1.0-1.dsc.
work () {
	rm -rf out vg.log &&
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		--log-file=vg.log extras-convert -q -o out greet_1.0-1.dsc &&
	sed -n "s/.*I *refs: *//p" vg.log | tr -d ,
}

# The work of the fixture as it is: what every conversion costs.
fixture_work () {
	big_dsc relation 0 && base=$(work) && test "$base" -gt 0
}
if test_have_prereq VALGRIND; then
	test_setup 'the work of the fixture as it is' fixture_work
fi

# linear INPUT SIZE: INPUT at SIZE and twice SIZE, against the fixture's
# work (base); the figures go to the TAP output.
linear () {
	big_dsc "$1" "$2" && small=$(work) &&
	big_dsc "$1" $(($2 * 2)) && big=$(work) &&
	awk -v n="$2" -v a="$small" -v b="$big" -v z="$base" -v what="$1" 'BEGIN {
		r = (b - z) / (a - z)
		printf "# %s: %d: %d, %d: %d instructions (fixture %d): ratio %.2f\n",
			what, n, a, 2 * n, b, z, r
		exit !(a > z && r <= 2.5)
	}'
}

test_expect_success VALGRIND 'a relation field of 32 KiB and 64 KiB' '
	linear relation 32768
'

test_expect_success VALGRIND 'a debian/rules of 32 KiB and 64 KiB' '
	linear rules 32768
'

test_expect_success VALGRIND 'a debian/control of 32 KiB and 64 KiB' '
	linear control 32768
'

test_expect_success VALGRIND 'a debian tarball of 500 and 1,000 members' '
	linear tarball 500
'

test_done
