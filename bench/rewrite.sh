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
[ -x /usr/bin/time ] || { echo "bench/rewrite: GNU time (/usr/bin/time) is needed" >&2; exit 2; }

# calc EXPR: floating point arithmetic; lt A B: whether A < B.
calc () { awk "BEGIN { printf \"%.6f\", $1 }"; }
lt () { awk "BEGIN { exit !($1 < $2) }"; }
# timed CMD...: the WALL and CPU seconds of one run, CPU being user +
# system time of the command and its children (patchelf's among them): on
# a machine shared with other jobs the wall time measures the load too.
timed () {
	# Status 1 is a finding (ripgrep matched nothing; the rewriter left
	# paths it could not patch, as the tree's system programs have), not a
	# failure.  A command that fails or is not found is reported, never
	# timed: its seconds would pass for a fast run.
	status=0
	/usr/bin/time -f '%e %U %S' -o "$BENCH_DIR/time" "$@" >/dev/null 2>"$BENCH_DIR/stderr" || status=$?
	if [ $status -gt 1 ]; then
		echo "bench/rewrite: failed with status $status: $*" >&2
		head -n 5 "$BENCH_DIR/stderr" >&2
		exit 2
	fi
	# The last line: a status other than 0 comes first.
	read -r WALL u s <<-EOF
	$(tail -n 1 "$BENCH_DIR/time")
	EOF
	CPU=$(calc "$u + $s")
}
# best_of N CMD...: the least WALL and the least CPU of N runs.
best_of () {
	n=$1; shift; bw=; bc=
	for _ in $(seq "$n"); do
		timed "$@"
		if [ -z "$bw" ] || lt "$WALL" "$bw"; then bw=$WALL; fi
		if [ -z "$bc" ] || lt "$CPU" "$bc"; then bc=$CPU; fi
	done
	WALL=$bw CPU=$bc
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

best_of 3 sh -c "find '$t' -type f -print0 | xargs -0 cat >/dev/null"
w_cat=$WALL c_cat=$CPU
best_of 3 rg -l -F -uuu -f "$BENCH_DIR/patterns" "$t"
w_rg=$WALL c_rg=$CPU
best_of 3 extras-rewrite --app $APP --dry-run "$t"
w_dry=$WALL c_dry=$CPU
# A real run writes: each on a fresh copy, whose files have one name as
# in a staged tree (a hard-linked copy's would all be replaced, never
# patched in place, and the original's inodes must stay as they are).
w_real='' c_real=''
for _ in 1 2 3; do
	rm -rf "$BENCH_DIR/run" && cp -a "$t" "$BENCH_DIR/run"
	timed sh -c "extras-rewrite --app $APP '$BENCH_DIR/run' 2>'$BENCH_DIR/run.err'"
	if [ -z "$w_real" ] || lt "$WALL" "$w_real"; then w_real=$WALL; fi
	if [ -z "$c_real" ] || lt "$CPU" "$c_real"; then c_real=$CPU; fi
done
rm -rf "$BENCH_DIR/run" "$BENCH_DIR/time"

printf 'rewrite: tree of %d MiB in %d files, %d patterns; load average %s\n' \
	$((bytes / 1048576)) "$files" "$(wc -l <"$BENCH_DIR/patterns")" \
	"$(cut -d' ' -f1 /proc/loadavg)"
printf 'rewrite: wall: cat %.3fs  rg %.3fs  dry-run %.3fs  run %.3fs\n' \
	"$w_cat" "$w_rg" "$w_dry" "$w_real"
printf 'rewrite: CPU:  cat %.3fs  rg %.3fs  dry-run %.3fs  run %.3fs\n' \
	"$c_cat" "$c_rg" "$c_dry" "$c_real"
# The summary: what was patched, and how many RUNPATHs needed patchelf.
sed -n 's/^extras-rewrite: /rewrite: run: /p' "$BENCH_DIR/run.err" | head -n 1
ratios () { # LABEL CAT RG DRY REAL
	printf 'rewrite: %s: dry-run/rg %.2f  run/rg %.2f (target <= 0.8)  dry-run/cat %.2f  run/cat %.2f (target < 1.0)\n' \
		"$1" "$(calc "$4 / $3")" "$(calc "$5 / $3")" \
		"$(calc "$4 / $2")" "$(calc "$5 / $2")"
}
ratios wall "$w_cat" "$w_rg" "$w_dry" "$w_real"
ratios CPU "$c_cat" "$c_rg" "$c_dry" "$c_real"
