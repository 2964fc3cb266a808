#!/bin/sh
# Run the libFuzzer harnesses built in $FUZZ_O/bin (make fuzz, make
# fuzz-smoke): each for SECONDS (0: each input once, unmutated), one
# after the other, from its corpus
# ($FUZZ_O/corpus/NAME, kept between runs), the seeds committed in
# tests/fuzz/seeds/NAME and those seeds.sh collects from the fixtures.
# With --replay, first every saved input of tests/fuzz/crashes/NAME/ runs
# once: a finding fixed must stay fixed.  A crash leaves its input in
# $FUZZ_O/artifacts/NAME/ and fails the run; each harness's log is in
# $FUZZ_O/logs/NAME.log.  tests/fuzz/NAME.dict, when there is one, is the
# harness's dictionary.
#
#	run.sh [--replay] SECONDS [NAME[,NAME]...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${FUZZ_O:=$here/../../build/fuzz}"
replay=false
if [ "${1:-}" = --replay ]; then
	replay=true
	shift
fi
secs=${1:?usage: run.sh [--replay] SECONDS [NAME...]}
shift
names=$(echo "$*" | tr ',' ' ')
if [ -z "$names" ]; then
	names=$(cd "$FUZZ_O/bin" && ls fuzz-* | sed 's/^fuzz-//')
fi

sh "$here/seeds.sh" "$FUZZ_O/seeds" || exit 1
mkdir -p "$FUZZ_O/logs"
failed=
for name in $names; do
	bin=$FUZZ_O/bin/fuzz-$name
	log=$FUZZ_O/logs/$name.log
	: >"$log"
	if [ ! -x "$bin" ]; then
		echo "$name: no harness $bin" >&2
		failed="$failed $name"
		continue
	fi
	# shfmt parses every script in a subprocess: small inputs only.
	case $name in
	maintscript) opts="-max_len=1024 -timeout=30" ;;
	patch-elf) opts="-max_len=65536 -timeout=20" ;;
	*) opts="-timeout=20" ;;
	esac
	# What a harness's input is made of, when a library (pcre2, shfmt)
	# does the matching libFuzzer cannot see into.
	if [ -f "$here/$name.dict" ]; then
		opts="$opts -dict=$here/$name.dict"
	fi
	if $replay && [ -d "$here/crashes/$name" ] &&
	   [ -n "$(ls "$here/crashes/$name")" ]; then
		if ! "$bin" $opts "$here/crashes/$name"/* >>"$log" 2>&1; then
			echo "$name: a saved input fails again (see $log)"
			failed="$failed $name"
			continue
		fi
		echo "$name: $(ls "$here/crashes/$name" | wc -l) saved inputs pass"
	fi
	corpus=$FUZZ_O/corpus/$name
	mkdir -p "$corpus" "$FUZZ_O/artifacts/$name" "$here/seeds/$name" \
		"$FUZZ_O/seeds/$name"
	# 0 seconds: every seed and corpus input once, no mutation, so
	# that the same tree always gives the same result (CI).
	if [ "$secs" = 0 ]; then
		limit=-runs=0
	else
		limit=-max_total_time=$secs
	fi
	if nice "$bin" $opts $limit -print_final_stats=1 \
	   -artifact_prefix="$FUZZ_O/artifacts/$name/" \
	   "$corpus" "$here/seeds/$name" "$FUZZ_O/seeds/$name" \
	   >>"$log" 2>&1; then
		status=ok
	else
		status="FAILED (see $log and $FUZZ_O/artifacts/$name/)"
		failed="$failed $name"
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	echo "$name: ${execs:-?} execs in ${secs} s, corpus $(ls "$corpus" | wc -l): $status"
done
if [ -n "$failed" ]; then
	echo "fuzzing failed:$failed" >&2
	exit 1
fi
