#!/bin/sh
# make bench: every benchmark in bench/, each printing its own ratios.
set -eu
cd "$(dirname "$0")/.."
status=0
for b in bench/*.sh; do
	[ "$b" = bench/run.sh ] && continue
	echo "== ${b#bench/}"
	sh "$b" || status=1
done
exit $status
