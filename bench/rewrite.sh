#!/bin/sh
# Benchmark extras-rewrite against ripgrep and cat on a staged tree of at
# least 1 GiB: ELF files copied from the system, text, and compressed
# files, with references to the package's own paths sprinkled in.  Prints
# the ratios; all runs warm cache, in one session.
set -eu

# tmpfs when there is room: on ext4, the inodes freed by one run's copy
# slow the next run's file creation (ext4's recently-deleted inode check),
# which would time the file system, not the rewriter.
if [ -z "${BENCH_DIR:-}" ] && [ -w /dev/shm ] &&
   [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt 4000000 ]; then
	BENCH_DIR=/dev/shm/dh-extras-bench-rewrite
fi
: "${BENCH_DIR:=${TMPDIR:-/tmp}/dh-extras-bench-rewrite}"
SIZE_MB=${BENCH_SIZE_MB:-1100}
APP=benchapp

command -v rg >/dev/null || { echo "bench/rewrite: ripgrep (rg) is needed" >&2; exit 2; }

# now: seconds since the epoch, with nanoseconds.
now () { date +%s.%N; }
# calc EXPR: floating point arithmetic; lt A B: whether A < B.
calc () { awk "BEGIN { printf \"%.6f\", $1 }"; }
lt () { awk "BEGIN { exit !($1 < $2) }"; }
# best_of N CMD...: the fastest of N runs, in seconds.
best_of () {
	n=$1; shift; best=
	for _ in $(seq "$n"); do
		t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
		t=$(calc "$t1 - $t0")
		if [ -z "$best" ] || lt "$t" "$best"; then best=$t; fi
	done
	echo "$best"
}

make_tree () {
	rm -rf "$BENCH_DIR" && mkdir -p "$BENCH_DIR"
	t=$BENCH_DIR/tree
	mkdir -p "$t/usr/bin" "$t/usr/lib/$APP" "$t/usr/share/$APP/text" \
		"$t/usr/share/$APP/gz" "$t/usr/share/doc/$APP"
	# ELF: shared libraries and programs from the system, until the size.
	total=0
	for f in /usr/lib/x86_64-linux-gnu/*.so.* /usr/bin/*; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		head -c 4 "$f" | grep -q ELF || continue
		# A file apt removed meanwhile is skipped.
		case $f in
		/usr/bin/*) cp "$f" "$t/usr/bin/" || continue ;;
		*) cp "$f" "$t/usr/lib/$APP/" || continue ;;
		esac
		total=$((total + $(stat -c %s "$f")))
		[ $total -lt $((SIZE_MB * 1024 * 1024 * 8 / 10)) ] || break
	done
	# Text: man pages, one in twenty with references to the package.
	i=0
	for f in /usr/share/man/man1/*.gz; do
		i=$((i + 1))
		zcat "$f" >"$t/usr/share/$APP/text/$i.txt" 2>/dev/null || continue
		if [ $((i % 20)) = 0 ]; then
			printf 'data=/usr/share/%s/text/1.txt\nlib=/usr/lib/%s\n' \
				"$APP" "$APP" >>"$t/usr/share/$APP/text/$i.txt"
		fi
		total=$((total + $(stat -c %s "$t/usr/share/$APP/text/$i.txt")))
		[ $total -lt $((SIZE_MB * 1024 * 1024 * 95 / 100)) ] || break
	done
	# Compressed: documentation changelogs.
	for f in /usr/share/doc/*/changelog*.gz; do
		i=$((i + 1))
		cp "$f" "$t/usr/share/$APP/gz/$i.gz" || continue
		total=$((total + $(stat -c %s "$t/usr/share/$APP/gz/$i.gz")))
		[ $total -lt $((SIZE_MB * 1024 * 1024)) ] || break
	done
	echo "$total" >"$BENCH_DIR/bytes"
	# The same prefixes the rewriter searches: the directories the package
	# owns and every file of the shared /usr/bin.
	{ echo "/usr/share/$APP"; echo "/usr/lib/$APP"
	  for f in "$t"/usr/bin/*; do echo "/usr/bin/${f##*/}"; done
	} >"$BENCH_DIR/patterns"
}

[ -f "$BENCH_DIR/bytes" ] || make_tree
t=$BENCH_DIR/tree
bytes=$(cat "$BENCH_DIR/bytes")
files=$(find "$t" -type f | wc -l)

# Warm the cache.
find "$t" -type f -exec cat {} + >/dev/null

t_cat=$(best_of 3 sh -c "find '$t' -type f -print0 | xargs -0 cat >/dev/null")
t_rg=$(best_of 3 rg -l -F -uuu -f "$BENCH_DIR/patterns" "$t")
t_dry=$(best_of 3 extras-rewrite --app $APP --dry-run "$t")
# A real run writes: each on a fresh hardlinked copy (renames and
# replacements never touch the original's inodes).
best_real=
for _ in 1 2 3; do
	rm -rf "$BENCH_DIR/run" && cp -al "$t" "$BENCH_DIR/run"
	t0=$(now); extras-rewrite --app $APP "$BENCH_DIR/run" >/dev/null 2>"$BENCH_DIR/run.err" || true; t1=$(now)
	tr=$(calc "$t1 - $t0")
	if [ -z "$best_real" ] || lt "$tr" "$best_real"; then best_real=$tr; fi
done
rm -rf "$BENCH_DIR/run"

printf 'rewrite: tree of %d MiB in %d files, %d patterns\n' \
	$((bytes / 1048576)) "$files" "$(wc -l <"$BENCH_DIR/patterns")"
printf 'rewrite: cat %.3fs  rg %.3fs  dry-run %.3fs  run %.3fs\n' \
	"$t_cat" "$t_rg" "$t_dry" "$best_real"
# The summary: what was patched, and how many RUNPATHs needed patchelf.
sed -n 's/^extras-rewrite: /rewrite: run: /p' "$BENCH_DIR/run.err" | head -n 1
printf 'rewrite: dry-run/rg %.2f  run/rg %.2f (target <= 0.8)  dry-run/cat %.2f  run/cat %.2f (target < 1.0)\n' \
	"$(calc "$t_dry / $t_rg")" "$(calc "$best_real / $t_rg")" \
	"$(calc "$t_dry / $t_cat")" "$(calc "$best_real / $t_cat")"
