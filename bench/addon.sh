#!/bin/sh
# Benchmark the add-on: dpkg-buildpackage -b of the autotools fixture with
# and without it, and each dh_extras_* helper's no-op run against
# dh_link's no-op run on the same built tree.  Prints ratios.
set -eu

: "${TOP:?run through make bench}"
work=$(mktemp -d "${TMPDIR:-/tmp}/dh-extras-bench-addon.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

now () { date +%s.%N; }
calc () { awk "BEGIN { printf \"%.6f\", $1 }"; }
lt () { awk "BEGIN { exit !($1 < $2) }"; }

# build_time DIR: the best of 5 dpkg-buildpackage -b runs, in seconds: a
# build takes seconds and the machine is shared, so the best says most.
build_time () {
	best=
	for _ in 1 2 3 4 5; do
		(cd "$1" && dpkg-buildpackage -us -uc -b -d >/dev/null 2>&1 &&
			debian/rules clean >/dev/null 2>&1) || true
		t0=$(now)
		(cd "$1" && dpkg-buildpackage -us -uc -b -d >/dev/null 2>&1)
		t1=$(now)
		t=$(calc "$t1 - $t0")
		if [ -z "$best" ] || lt "$t" "$best"; then best=$t; fi
	done
	echo "$best"
}

cp -a "$TOP/tests/fixtures/greet" with
cp -a "$TOP/tests/fixtures/greet" without
sed -i 's/, dh-sequence-extras//' without/debian/control

t_with=$(build_time with)
t_without=$(build_time without)
printf 'addon: dpkg-buildpackage -b: with %.2fs, without %.2fs, ratio %.3f (target <= 1.03)\n' \
	"$t_with" "$t_without" "$(calc "$t_with / $t_without")"

# No-op runs: on the tree a finished build leaves (already relocated).
(cd with && dpkg-buildpackage -us -uc -b -d >/dev/null 2>&1 || true)
(cd with && fakeroot debian/rules binary >/dev/null 2>&1 || true)
# noop CMD: seconds per run, the best of 3 rounds of 20 runs, so that the
# shell's own fork and exec weigh the same on both sides.
noop () {
	best=
	for _ in 1 2 3; do
		t0=$(now)
		for _ in $(seq 20); do "$@" >/dev/null 2>&1 || true; done
		t1=$(now)
		t=$(calc "($t1 - $t0) / 20")
		if [ -z "$best" ] || lt "$t" "$best"; then best=$t; fi
	done
	echo "$best"
}
cd with
t_link=$(noop dh_link)
for helper in $(cd "$BUILDDIR/bin" && ls dh_extras_* 2>/dev/null); do
	t=$(noop "$helper")
	printf 'addon: no-op %s %.4fs vs dh_link %.4fs: ratio %.3f (target <= 0.1)\n' \
		"$helper" "$t" "$t_link" "$(calc "$t / $t_link")"
done
