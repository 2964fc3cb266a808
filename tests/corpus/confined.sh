#!/bin/sh
# confined.sh: the second half of `make corpus CONFINED=1`, run by
# tests/corpus/run.sh after its table.  Every package that installed in
# the scratch root runs its smoke again in the AppArmor VM of `make
# check-confinement`: as the ordinary user alice, with the package's
# profile enforced (tests/corpus/confined-boot.sh).  The VM has no
# network, so its image (tests/confinement/image.sh, kept in
# CORPUS_VM_DIR) holds the packages' runtime dependencies and the smokes'
# tools.  Prints a second table with the number of DENIED lines each
# smoke caused and the first of them; all are in
# $CACHE/confined/denied/PACKAGE.
#
# Environment: TOP, CACHE (run.sh's), RESULTS (its rows), LIST (the
# packages file).
set -u
TAB=$(printf '\t')
VM=${CORPUS_VM_DIR:-/var/tmp/dh-extras-vm-corpus}
run=$CACHE/confined
payload=$run/payload

die () { echo "corpus CONFINED: $*" >&2; exit 1; }

rm -rf "$run" && mkdir -p "$payload/corpus" || die "cannot make $run"

# The packages that installed, with what their smokes need.
awk -F"$TAB" '$5 == "ok" { print $1 }' "$RESULTS" >"$run/packages"
[ -s "$run/packages" ] || die "no package installed in the scratch root"
while IFS="$TAB" read -r pkg pattern cmd setup; do
	case $pkg in ''|'#'*) continue ;; esac
	pkg=${pkg%%:*}
	grep -qx -F "$pkg" "$run/packages" || continue
	work=$CACHE/work/$pkg d=$payload/corpus/$pkg
	mkdir -p "$d/debs" || die "cannot make $d"
	# Not the development packages: no smoke needs them, and their
	# Depends name -dev packages whose first choice may conflict with
	# the app's libraries (extras-libmpv-dev's libjack-dev, jack1's,
	# against extras-mpv's libjack-jackd2-0: the image could not be made).
	for deb in "$work"/*.deb; do
		case $(dpkg-deb -f "$deb" Package) in *-dev) continue ;; esac
		cp "$deb" "$d/debs/" || die "cannot copy $deb"
	done
	sed -n 's/^Source: extras-//p' "$work"/out/*.dsc >"$d/app" &&
	printf '%s' "$pattern" >"$d/pattern" &&
	printf '%s' "$cmd" >"$d/cmd" &&
	printf '%s' "$setup" >"$d/setup" || die "cannot copy $pkg"
done <"$LIST"

# Runtime dependencies: the first alternative of each Depends and
# Pre-Depends, without versions; the packages' siblings come as .debs.
deps=$(for deb in "$payload"/corpus/*/debs/*.deb; do
	dpkg-deb -f "$deb" Depends Pre-Depends | sed 's/^[A-Za-z-]*: //'
done | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/:any//; s/[[:space:]]//g' |
	grep -v -e '^$' -e '^extras-' | sort -u | paste -sd, -)
# The smokes' own tools: xvfb-run, file, script (bsdutils, essential),
# xwininfo (x11-utils) and xdotool, which types into a window as a user
# would (sgt-puzzles' Help menu, chroma's level menus).
extra=xvfb,xauth,file,x11-utils,xdotool${deps:+,$deps}

echo "corpus CONFINED: VM image in $VM with $(echo "$extra" | tr ',' '\n' | wc -l) more packages" >&2
VM_EXTRA=$extra VM_SIZE=${CORPUS_VM_SIZE:-8G} timeout -k 30 3600 \
	sh "$TOP/tests/confinement/image.sh" "$VM" >"$run/image.log" 2>&1 ||
	{ tail -n 20 "$run/image.log" >&2; die "building the VM image failed (log: $run/image.log)"; }

cp "$TOP/tests/corpus/confined-boot.sh" "$payload/boot.sh" &&
echo "${CORPUS_VM_TIMEOUT:-5400}" >"$payload/timeout" || die "cannot fill $payload"
mb=$(du -sm "$payload" | cut -f1)
truncate -s "$((mb * 2 + 256))M" "$run/payload.img" &&
mkfs.ext4 -q -F -L payload -d "$payload" "$run/payload.img" >"$run/mkfs.log" 2>&1 ||
	die "mkfs.ext4 of the payload failed"

echo "corpus CONFINED: booting (console: $run/console.log)" >&2
VM_MEMORY=2048 sh "$TOP/tests/confinement/qemu.sh" "$VM" "$run/payload.img" \
	"$run/console.log" "$(( ${CORPUS_VM_TIMEOUT:-5400} + 600 ))"
rc=$?
[ $rc -eq 124 ] && die "the VM timed out (console: $run/console.log)"

mkdir -p "$run/denied" "$run/logs"
debugfs -R "dump /results $run/results" "$run/payload.img" >/dev/null 2>&1
for pkg in $(cat "$run/packages"); do
	debugfs -R "dump /denied/$pkg $run/denied/$pkg" "$run/payload.img" >/dev/null 2>&1
	debugfs -R "dump /logs/$pkg.log $run/logs/$pkg.log" "$run/payload.img" >/dev/null 2>&1
done
[ -s "$run/results" ] || { tail -n 30 "$run/console.log" >&2; die "no results from the VM"; }

total=$(wc -l <"$run/packages")
passed=$(awk -F"$TAB" '$2=="ok" && $3=="ok" && $4=="ok" && $5=="0"' "$run/results" | wc -l)
echo
echo "confined, as alice, profile enforced:"
{
	printf 'package\tinstall\tprofile\tsmoke\tdenied\tnote\n'
	cat "$run/results"
} | awk -F"$TAB" '{ printf "%-12s %-7s %-7s %-5s %-6s %s\n", $1, $2, $3, $4, $5, $6 }'
echo "$passed/$total passed confined"
[ "$passed" -eq "$total" ]
