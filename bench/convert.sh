#!/bin/sh
# Benchmark extras-convert on a .dsc against what a plain rebuild of the
# same source package costs: dpkg-source -x then dpkg-source -b.  Prints
# both times and the ratio (target: at most 1.0); warm cache, best of 3.
#
# The packages: a generated 3.0 (quilt) source with a large upstream
# tarball, and hello from the archive when apt-get source can fetch it.
#
# Then the four big inputs of tests/convert-big.sh, each converted at full
# size (a 4 MiB relation field, debian/rules and debian/control, a debian
# tarball of 200,000 members) and at a quarter of it: both times and their
# ratio (4 when the work is linear; target: at most 2 s at full size).
# tests/convert-linear.t checks the growth by instructions counted.
set -eu

: "${BENCH_DIR:=${TMPDIR:-/tmp}/dh-extras-bench-convert}"
UPSTREAM_MB=${BENCH_UPSTREAM_MB:-64}
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}

now () { date +%s.%N; }
calc () { awk "BEGIN { printf \"%.3f\", $1 }"; }
lt () { awk "BEGIN { exit !($1 < $2) }"; }
best_of () {
	n=$1; shift; best=
	for _ in $(seq "$n"); do
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		t=$(calc "$t1 - $t0")
		if [ -z "$best" ] || lt "$t" "$best"; then best=$t; fi
	done
	echo "$best"
}

# The generated package: the test fixture plus upstream files up to the size.
make_generated () {
	. "$TOP/tests/convert-fixture.sh"
	d=$BENCH_DIR/gen
	mkdir -p "$d"
	make_fixture "$d/greet-1.0" "3.0 (quilt)"
	mkdir -p "$d/greet-1.0/data"
	i=0
	while [ $((i * 256)) -lt $((UPSTREAM_MB * 1024)) ]; do
		# Compressible but not trivial: text with varying numbers.
		seq $((i * 20000)) $((i * 20000 + 40000)) >"$d/greet-1.0/data/part$i.txt"
		i=$((i + 1))
	done
	(cd "$d" && tar --exclude=greet-1.0/debian -czf greet_1.0.orig.tar.gz greet-1.0 &&
		dpkg-source -b greet-1.0 >/dev/null 2>&1 && rm -rf greet-1.0)
	echo "$d/greet_1.0-1.dsc"
}

make_hello () {
	d=$BENCH_DIR/hello
	mkdir -p "$d"
	(cd "$d" && apt-get source -qq --download-only hello) >/dev/null 2>&1 || return 1
	ls "$d"/hello_*.dsc
}

convert () {
	rm -rf "$BENCH_DIR/out" && extras-convert -q -o "$BENCH_DIR/out" "$1"
}

rebuild () {
	rm -rf "$BENCH_DIR/rebuild" && mkdir "$BENCH_DIR/rebuild" &&
	cd "$BENCH_DIR/rebuild" &&
	dpkg-source --copy-orig-tarballs -x "$1" tree &&
	dpkg-source -b tree && cd "$BENCH_DIR"
}

rm -rf "$BENCH_DIR" && mkdir -p "$BENCH_DIR"
set -- "$(make_generated)"
if hello=$(make_hello); then set -- "$@" "$hello"; fi
status=0
for dsc; do
	convert "$dsc" || { echo "bench/convert: extras-convert failed on $dsc" >&2; exit 1; }
	rebuild "$dsc" >/dev/null 2>&1 || { echo "bench/convert: dpkg-source failed on $dsc" >&2; exit 1; }
	tc=$(best_of 3 convert "$dsc")
	tb=$(best_of 3 rebuild "$dsc")
	ratio=$(calc "$tc / $tb")
	printf '%s: extras-convert %ss, dpkg-source -x + -b %ss, ratio %s%s\n' \
		"$(basename "$dsc")" "$tc" "$tb" "$ratio" \
		"$(lt 1.0 "$ratio" && echo ' (over the 1.0 target)' || :)"
	lt 1.0 "$ratio" && status=1
done

# big INPUT LABEL SIZE: INPUT at SIZE and SIZE/4, best of 3 each.
big () {
	(cd "$BENCH_DIR/big" && big_dsc "$1" "$3" >/dev/null 2>&1)
	tf=$(best_of 3 convert "$BENCH_DIR/big/greet_1.0-1.dsc")
	(cd "$BENCH_DIR/big" && big_dsc "$1" $(($3 / 4)) >/dev/null 2>&1)
	tq=$(best_of 3 convert "$BENCH_DIR/big/greet_1.0-1.dsc")
	printf '%s: extras-convert %ss, at 1/4 %ss, ratio %s (linear: 4)%s\n' \
		"$2" "$tf" "$tq" "$(calc "$tf / $tq")" \
		"$(lt 2.0 "$tf" && echo ' (over the 2 s target)' || :)"
	lt 2.0 "$tf" && status=1
	return 0
}
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/convert-big.sh"
mkdir -p "$BENCH_DIR/big"
(cd "$BENCH_DIR/big" && big_setup)
# 4 MiB less 4 KiB: a control file may have at most 4 MiB.
big relation 'a relation field of 4 MiB' $((4096 * 1024 - 4096))
big rules 'a debian/rules of 4 MiB' $((4096 * 1024 - 4096))
big control 'a debian/control of 4 MiB' $((4096 * 1024 - 4096))
big tarball 'a debian tarball of 200,000 members' 200000
rm -rf "$BENCH_DIR"
exit $status
