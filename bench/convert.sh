#!/bin/sh
# Benchmark extras-convert on a .dsc against what a plain rebuild of the
# same source package costs: dpkg-source -x then dpkg-source -b.  Prints
# both times and the ratio (target: at most 1.0); warm cache, best of 3.
#
# The packages: a generated 3.0 (quilt) source with a large upstream
# tarball, and hello from the archive when apt-get source can fetch it.
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
rm -rf "$BENCH_DIR"
exit $status
