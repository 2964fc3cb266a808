#!/bin/sh
# make corpus: real Debian source packages through the whole pipeline.
#
# For each package of tests/corpus/packages (or of CORPUS=hello,jq): fetch
# the source with apt-get source (cached in $CORPUS_CACHE, outside the
# repository), extras-convert the .dsc, install the original's build
# dependencies, build the converted source with dpkg-buildpackage as a
# build daemon would (as a user other than root, CORPUS_BUILD_USER, root
# gained through fakeroot; its PATH plus the uninstalled commands), run
# extras-review on the .changes, install the .debs into a scratch root
# (tests/corpus/scratch.sh), run the smoke command there, purge, purge the
# build dependencies it brought, and print one row per package and "N/M
# passed".  With CONFINED=1, the packages that installed then run their
# smokes again in an AppArmor VM, as an ordinary user, with their profiles
# enforced (tests/corpus/confined.sh): a second table, with the DENIED
# lines.  Every step is bounded by timeout
# and run with nice; packages are built one at a time.  Needs root (apt,
# unshare).  Logs: $CORPUS_CACHE/logs/PACKAGE/STEP.log.

set -u

: "${TOP:?run it through make corpus}"
: "${BUILDDIR:?run it through make corpus}"

CACHE=${CORPUS_CACHE:-/var/tmp/dh-extras-corpus}
LIST=${CORPUS_LIST:-$TOP/tests/corpus/packages}
BUILD_TIMEOUT=${CORPUS_BUILD_TIMEOUT:-3600}
# A build daemon's PATH; the uninstalled commands stand in for the
# installed dh-extras package.
BUILD_PATH=/usr/sbin:/usr/bin:/sbin:/bin:$BUILDDIR/bin
# Builds run as a build daemon's do, not as root: some configure scripts
# refuse root (tar's), and a build that writes outside its tree fails.
BUILD_USER=${CORPUS_BUILD_USER:-nobody}
BUILD_GROUP=$(id -gn "$BUILD_USER") || exit 2
APT="apt-get -o DPkg::Lock::Timeout=600 -q"
TAB=$(printf '\t')

mkdir -p "$CACHE/src" "$CACHE/work" "$CACHE/logs" || exit 2
RESULTS=$CACHE/results
: >"$RESULTS"

# selected PACKAGE: whether CORPUS (a comma-separated list) names it.
selected () {
	[ -z "${CORPUS:-}" ] && return 0
	case ",$CORPUS," in *",$1,"*) return 0 ;; esac
	return 1
}

# step LOG SECONDS COMMAND...: run COMMAND niced and bounded, all its
# output to LOG.
step () {
	log=$1 secs=$2; shift 2
	timeout -k 30 "$secs" nice "$@" >"$log" 2>&1 </dev/null
	rc=$?
	[ $rc -eq 124 ] && echo "timeout after ${secs}s: $*" >>"$log"
	return $rc
}

# first_error LOG: the line of LOG that says why a step failed: a tool's
# own "NAME: error: ..." (dpkg-buildpackage's summary only when there is
# nothing else), a timeout, apt's "E:", make's "***", else the last line.
first_error () {
	line=$(grep -E '^[A-Za-z0-9_.+-]+: error: ' "$1" | grep -v '^dpkg-buildpackage: ' | head -n 1)
	[ -n "$line" ] || line=$(grep -m1 -E 'timeout after|^E: |^dpkg-buildpackage: error: |[^*]\*\*\* ' "$1")
	[ -n "$line" ] || line=$(grep -v '^[[:space:]]*$' "$1" | tail -n 1)
	printf '%s' "$line" | tr '\t' ' ' | cut -c1-400
}

# row PACKAGE CONVERT BUILD REVIEW INSTALL SMOKE PURGE NOTE
row () {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RESULTS"
}

# build PKG PRIVILEGES: fetch, convert and build PKG into $work, or print
# its row and fail.
build () {
	pkg=$1 privileges=$2
	rm -rf "$logs" "$work" && mkdir -p "$logs" "$work/home" || return

	if ! ls "$CACHE/src/$pkg"/*.dsc >/dev/null 2>&1; then
		mkdir -p "$CACHE/src/$pkg"
		if ! (cd "$CACHE/src/$pkg" &&
		      step "$logs/fetch.log" 900 apt-get source --download-only "$pkg"); then
			row "$pkg" FAIL - - - - - "fetch: $(first_error "$logs/fetch.log")"
			return 1
		fi
	fi
	dsc=$(ls "$CACHE/src/$pkg"/*.dsc | sort -V | tail -n 1)

	# PRIVILEGES[;bus-names=LIST][;ids=LIST]: extras-convert's options
	# (no value holds a space: extras-convert checks them); granted= is
	# the store's, not the uploader's.
	options=$(echo "$privileges" | awk -F';' '{
		if ($1 != "") printf "--privileges %s", $1
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] != "granted") printf " --%s %s", kv[1], kv[2]
		}
	}')
	# shellcheck disable=SC2086
	if ! step "$logs/convert.log" 300 extras-convert $options \
		-o "$work/out" "$dsc" ||
	   ! step "$logs/unpack.log" 300 dpkg-source -x "$work"/out/*.dsc "$work/src"; then
		note=$(first_error "$logs/convert.log")
		[ -s "$logs/unpack.log" ] && note=$(first_error "$logs/unpack.log")
		row "$pkg" FAIL - - - - - "$note"
		return 1
	fi
	app=$(sed -n 's/^Source: extras-//p' "$work"/out/*.dsc)

	step "$logs/build-deps.log" 1800 $APT build-dep -y "$dsc"
	rc=$?
	# What this build-dep installed, from its own log: the system's list
	# before and after would take in what other builds install meanwhile.
	sed -n 's/^Selecting previously unselected package \([^ ]*\)\.$/\1/p' \
		"$logs/build-deps.log" >"$CACHE/build-deps.added"
	if [ $rc -ne 0 ]; then
		row "$pkg" ok FAIL - - - - "build-dep: $(first_error "$logs/build-deps.log")"
		return 1
	fi
	# -d: dh-sequence-extras is this tree, not an installed package.
	if ! chown -R "$BUILD_USER:$BUILD_GROUP" "$work"; then
		row "$pkg" ok FAIL - - - - "cannot give $work to $BUILD_USER"
		return 1
	fi
	if ! (cd "$work/src" && step "$logs/build.log" "$BUILD_TIMEOUT" \
		setpriv --reuid="$BUILD_USER" --regid="$BUILD_GROUP" \
		--clear-groups \
		env -i PATH="$BUILD_PATH" HOME="$work/home" LANG=C.UTF-8 \
		PERL5LIB="$TOP/dh-extras" DH_EXTRAS_DATADIR="$TOP" \
		DH_EXTRAS_AUTODIR="$TOP/dh-extras/auto" \
		DEB_BUILD_OPTIONS="${CORPUS_DEB_BUILD_OPTIONS-nocheck parallel=2}" \
		dpkg-buildpackage -us -uc -b -d); then
		row "$pkg" ok FAIL - - - - "$(first_error "$logs/build.log")"
		return 1
	fi
}

corpus_one () {
	pkg=$1 privileges=$2 pattern=$3 cmd=$4 setup=$5
	logs=$CACHE/logs/$pkg work=$CACHE/work/$pkg
	echo "corpus: $pkg" >&2
	# CORPUS_REUSE=1 keeps what an earlier run built (its smoke only
	# changed); the declaration must be the same, or it builds again.
	# What the store grants is not built in.
	declared=$(printf '%s' "$privileges" | sed 's/;granted=[^;]*//')
	if [ "${CORPUS_REUSE:-0}" = 0 ] || ! ls "$work"/*.changes >/dev/null 2>&1 ||
	   [ "$(cat "$work/privileges" 2>/dev/null)" != "$declared" ]; then
		build "$pkg" "$privileges" || return
		echo "$declared" >"$work/privileges"
	fi
	mkdir -p "$logs" && rm -f "$logs/review.log" "$logs/scratch.log" "$logs/status"
	app=$(sed -n 's/^Source: extras-//p' "$work"/out/*.dsc)

	# ;granted=LIST: the reserved privileges the store grants this app,
	# as its operator would after reading why the app needs them.
	grants=$(echo "$privileges" | awk -F';' '{
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] != "granted") continue
			n = split(kv[2], g, ",")
			for (j = 1; j <= n; j++) printf " --grant %s", g[j]
		}
	}')
	review=ok note=
	# shellcheck disable=SC2086
	if ! step "$logs/review.log" 600 extras-review $grants "$work"/*.changes; then
		review=FAIL note=$(first_error "$logs/review.log")
	fi

	# The scratch root lives in a private mount namespace: nothing of the
	# install reaches this system.
	scratch=$(mktemp -d /tmp/dh-extras-corpus.XXXXXX) || return
	timeout -k 30 1800 unshare -m --propagation private \
		sh "$TOP/tests/corpus/scratch.sh" "$work" "$app" "$pattern" "$cmd" "$setup" \
		"$logs" "$scratch" >"$logs/scratch.log" 2>&1 </dev/null
	rmdir "$scratch"
	install=$(sed -n 's/^install=//p' "$logs/status")
	smoke=$(sed -n 's/^smoke=//p' "$logs/status")
	purge=$(sed -n 's/^purge=//p' "$logs/status")
	[ -n "$note" ] || note=$(sed -n 's/^note=//p' "$logs/status" | head -n 1)
	row "$pkg" ok ok "$review" "${install:-FAIL}" "${smoke:--}" "${purge:--}" "$note"
}

total=0
while IFS="$TAB" read -r pkg pattern cmd setup; do
	case $pkg in ''|'#'*) continue ;; esac
	# PACKAGE:PRIVILEGES[;KEY=LIST]...: what the app declares, as its
	# uploader would.
	privileges=
	case $pkg in *:*) privileges=${pkg#*:} pkg=${pkg%%:*} ;; esac
	selected "$pkg" || continue
	total=$((total + 1))
	# Each package builds with its own Build-Depends and what was there
	# before, not what an earlier one brought (autoconf-archive, which
	# scrot needs, makes aria2's aclocal loop): those go again after.
	rm -f "$CACHE/build-deps.added"
	corpus_one "$pkg" "$privileges" "$pattern" "$cmd" "$setup"
	if [ -s "$CACHE/build-deps.added" ] &&
	   ! step "$CACHE/logs/$pkg/cleanup.log" 900 \
		$APT purge -y $(cat "$CACHE/build-deps.added"); then
		echo "corpus: $pkg: its build dependencies could not be purged" >&2
	fi
done <"$LIST"

passed=$(awk -F"$TAB" '$2=="ok" && $3=="ok" && $4=="ok" && $5=="ok" && $6=="ok" && $7=="ok"' "$RESULTS" | wc -l)
{
	printf 'package\tconvert\tbuild\treview\tinstall\tsmoke\tpurge\tnote\n'
	cat "$RESULTS"
} | awk -F"$TAB" '{ printf "%-9s %-7s %-5s %-6s %-7s %-5s %-5s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
echo "$passed/$total passed"
status=0
[ "$passed" -eq "$total" ] || status=1
if [ -n "${CONFINED:-}" ] && [ "$CONFINED" != 0 ]; then
	CACHE=$CACHE RESULTS=$RESULTS LIST=$LIST sh "$TOP/tests/corpus/confined.sh" || status=1
fi
exit $status
