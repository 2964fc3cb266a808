#!/bin/sh
# extras-conflicts on real data: bookworm's Contents-all and Contents-amd64
# as apt-file downloads them (apt-get install apt-file && apt-file update).
#
# Prints: index build time (every path kept) against lz4cat of the same
# files (target <= 2x), the index's size against the uncompressed size,
# whether building it again gives the same bytes, and the time to check a
# package of 1,000 files, in a directory bookworm lacks and with every
# path looked up, against apt-file search for one path (targets: <= 10
# ms, >= 10,000x faster per path).
# BENCH_SQLITE=1 also times loading the same lines into an SQLite table
# with an index on the path (sqlite3 needed; about a minute).
set -eu

LISTS=${APT_LISTS:-/var/lib/apt/lists}
set -- $(ls "$LISTS"/*_dists_bookworm_main_Contents-all.lz4 \
	"$LISTS"/*_dists_bookworm_main_Contents-amd64.lz4 2>/dev/null || true)
if [ $# -ne 2 ]; then
	echo "conflicts: skipped: no bookworm Contents in $LISTS" \
		"(apt-get install apt-file && apt-file update)"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dh-extras-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT PIPE TERM

now () { date +%s%N; }
# best N COMMAND...: the fastest of N runs, in nanoseconds.
best () {
	n=$1; shift
	min=
	for _ in $(seq "$n"); do
		t0=$(now); "$@" >/dev/null; t1=$(now)
		t=$((t1 - t0))
		if [ -z "$min" ] || [ "$t" -lt "$min" ]; then min=$t; fi
	done
	echo "$min"
}
ms () { awk -v ns="$1" 'BEGIN { printf "%.1f ms", ns / 1e6 }'; }
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

lz4cat_all () { lz4cat "$@" > /dev/null; }
index () { extras-conflicts index --archive bookworm -d "$work/db" "$@"; }

lines=$(lz4cat "$@" | wc -l)
size=$(lz4cat "$@" | wc -c)
index "$@" >/dev/null	# warm the page cache and the allocator
cp "$work/db/contents/bookworm.idx" "$work/first.idx"
t_lz4=$(best 5 lz4cat_all "$@")
t_index=$(best 5 index "$@")
idx_size=$(stat -c %s "$work/db/contents/bookworm.idx")
if cmp -s "$work/first.idx" "$work/db/contents/bookworm.idx"; then
	same="the same bytes"
else
	same="DIFFERENT bytes"
fi
rm -f "$work/first.idx"
echo "conflicts: index of $lines lines ($size bytes):" \
	"$(ms "$t_index") against lz4cat $(ms "$t_lz4"):" \
	"$(ratio "$t_index" "$t_lz4")x (target <= 2x)"
echo "conflicts: index size $idx_size bytes against $size uncompressed:" \
	"$(ratio "$idx_size" "$size")x"
echo "conflicts: the first and the last of six indices of the same files:" \
	"$same (target: the same)"
if [ -n "${BENCH_SQLITE:-}" ] && command -v sqlite3 >/dev/null; then
	lz4cat "$@" | sed -E 's/[[:space:]]+([^[:space:]]+)$/\t\1/' \
		> "$work/contents.tsv"
	sqlite_load () {
		rm -f "$work/c.sqlite"
		sqlite3 "$work/c.sqlite" <<-EOF
		PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
		CREATE TABLE contents (path TEXT NOT NULL, packages TEXT NOT NULL);
		.mode tabs
		.import $work/contents.tsv contents
		CREATE INDEX contents_path ON contents (path);
		EOF
	}
	t_sqlite=$(best 1 sqlite_load)
	echo "conflicts: SQLite table of the same lines: $(ms "$t_sqlite"),"\
		"$(stat -c %s "$work/c.sqlite") bytes:" \
		"$(ratio "$t_sqlite" "$t_lz4")x lz4cat"
	rm -f "$work/c.sqlite" "$work/contents.tsv"
fi

# A package of 1,000 files, three of them shipped by bookworm: every
# file is looked up (and whether it is a directory there).  DIRS: where
# the other 997 lie.  In a directory bookworm lacks, as an app's
# namespace, one probe answers for all; in one it has, each is probed.
make_bench_deb () {
	tree=$work/tree-$1
	mkdir -p "$tree/DEBIAN" "$tree/$2" "$tree/usr/bin" "$tree/usr/games"
	printf 'Package: bench\nVersion: 1.0\nArchitecture: all\nMaintainer: B <b@example.org>\nDescription: bench\n' \
		> "$tree/DEBIAN/control"
	i=0
	while [ $i -lt 997 ]; do
		: > "$tree/$2/bench-file-$i"
		i=$((i + 1))
	done
	: > "$tree/usr/bin/figlet-figlet"
	: > "$tree/usr/bin/hello"
	: > "$tree/usr/games/sl"
	dpkg-deb --root-owner-group -Znone --build "$tree" "$work/$1.deb" \
		>/dev/null
}
make_bench_deb bench usr/share/bench/data
make_bench_deb bench-probed usr/lib/x86_64-linux-gnu
check () { extras-conflicts check -d "$work/db" "$work/$deb.deb" || true; }
# Ten checks between two clock readings, so that starting date(1) does
# not weigh on a figure of a few milliseconds.
check10 () { for _ in 1 2 3 4 5 6 7 8 9 10; do check >/dev/null; done; }
deb=bench-probed
t_probed=$(($(best 5 check10) / 10))
deb=bench
found=$(check | wc -l)
t_check=$(($(best 5 check10) / 10))

t_aptfile=$(best 1 apt-file search /usr/bin/figlet-figlet)
echo "conflicts: check of a package of 1,000 files ($found conflicts)," \
	"997 in a directory bookworm lacks: $(ms "$t_check") (target <= 10 ms)"
echo "conflicts: the same with its 1,000 files each looked up (997 in a" \
	"directory bookworm has): $(ms "$t_probed") (target <= 10 ms)"
echo "conflicts: apt-file search for one path: $(ms "$t_aptfile");" \
	"per path $(ratio "$((t_aptfile * 1000))" "$t_check")x faster" \
	"(target >= 10000x)"
