#!/bin/sh
# Benchmark the add-on: dpkg-buildpackage -b of the autotools fixture with
# and without it, and each dh_extras_* helper's no-op run against
# dh_link's no-op run on the same built tree.  Prints ratios of CPU time
# (user + system, the children's included) beside the wall time: on a
# machine shared with other jobs the wall time measures the load too, and
# a short process's most of all (it waits for a core at every exec).
set -eu

: "${TOP:?run through make bench}"
[ -x /usr/bin/time ] || { echo "bench/addon: GNU time (/usr/bin/time) is needed" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/dh-extras-bench-addon.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

calc () { awk "BEGIN { printf \"%.6f\", $1 }"; }
lt () { awk "BEGIN { exit !($1 < $2) }"; }
load () { cut -d' ' -f1 /proc/loadavg; }
# timed CMD...: the exit STATUS, WALL and CPU seconds of one run of CMD,
# its output discarded.
timed () {
	/usr/bin/time -f '%x %e %U %S' -o "$work/time" "$@" >/dev/null 2>&1 || true
	# The last line: a failure's message comes first.
	read -r STATUS WALL u s <<-EOF
	$(tail -n 1 "$work/time")
	EOF
	CPU=$(calc "$u + $s")
}

cp -a "$TOP/tests/fixtures/greet" with
cp -a "$TOP/tests/fixtures/greet" without
sed -i 's/, dh-sequence-extras//' without/debian/control

# Builds: five a side, in turns, each from a clean tree (as a package is
# built from its source) after one untimed build a side (the page cache,
# the first run's start-up); the least wall and the least CPU of each
# side, and the median of the five rounds' CPU ratios: the two builds of
# a round run under much the same load, which moves the CPU time of both
# (cores shared by hyper-threads, caches) by more than the add-on costs.
build='cd "$1" && dpkg-buildpackage -us -uc -b -d'
load0=$(load)
for side in with without; do sh -c "$build" build $side >/dev/null 2>&1 || true; done
ww= wc= ow= oc= ratios=
for _ in 1 2 3 4 5; do
	for side in with without; do
		(cd $side && debian/rules clean >/dev/null 2>&1) || true
		timed sh -c "$build" build $side
		[ "$STATUS" = 0 ] || { echo "bench/addon: the build $side failed" >&2; exit 1; }
		if [ $side = with ]; then
			cpu_with=$CPU
			if [ -z "$ww" ] || lt "$WALL" "$ww"; then ww=$WALL; fi
			if [ -z "$wc" ] || lt "$CPU" "$wc"; then wc=$CPU; fi
		else
			ratios="$ratios $(calc "$cpu_with / $CPU")"
			if [ -z "$ow" ] || lt "$WALL" "$ow"; then ow=$WALL; fi
			if [ -z "$oc" ] || lt "$CPU" "$oc"; then oc=$CPU; fi
		fi
	done
done
median=$(printf '%s\n' $ratios | sort -n | sed -n 3p)
printf 'addon: dpkg-buildpackage -b: CPU ratio %.3f, median of rounds (%s) (target <= 1.03); least CPU with %.2fs, without %.2fs, ratio %.3f; wall %.2fs, %.2fs, ratio %.3f; load %s to %s\n' \
	"$median" "$(printf '%.3f ' $ratios | sed 's/ $//')" "$wc" "$oc" "$(calc "$wc / $oc")" \
	"$ww" "$ow" "$(calc "$ww / $ow")" "$load0" "$(load)"

# No-op runs: on the tree a finished build leaves (already relocated),
# each command on a copy of its own (one helper's run, dh_extras_clean's
# or dh_extras_unprefix's, changes what the next would find), after one
# untimed run there (a helper that changes the tree has done so once).
(cd with && dpkg-buildpackage -us -uc -b -d >/dev/null 2>&1 || true)
(cd with && fakeroot debian/rules binary >/dev/null 2>&1 || true)
# noop CMD: seconds per run, wall and CPU, the least of 3 rounds of 50
# runs, so that the shell's own fork and exec weigh the same on both sides;
# a helper's refusal counts as a run (a no-op run may refuse).
noop () {
	rm -rf tree && cp -a with tree
	(cd tree && "$@" >/dev/null 2>&1) || true
	bw= bc=
	for _ in 1 2 3; do
		timed sh -c 'cd tree && for _ in $(seq 50); do "$@" >/dev/null 2>&1 || true; done' noop "$@"
		if [ -z "$bw" ] || lt "$WALL" "$bw"; then bw=$WALL; fi
		if [ -z "$bc" ] || lt "$CPU" "$bc"; then bc=$CPU; fi
	done
	WALL=$(calc "$bw / 50") CPU=$(calc "$bc / 50")
}
noop dh_link
lw=$WALL lc=$CPU
for helper in $(cd "$BUILDDIR/bin" && ls dh_extras_* 2>/dev/null); do
	noop "$helper"
	printf 'addon: no-op %s CPU %.4fs vs dh_link %.4fs: ratio %.3f (target <= 0.1); wall %.4fs vs %.4fs: %.3f\n' \
		"$helper" "$CPU" "$lc" "$(calc "$CPU / $lc")" \
		"$WALL" "$lw" "$(calc "$WALL / $lw")"
done
rm -rf tree
