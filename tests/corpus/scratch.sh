#!/bin/sh
# scratch.sh WORK APP PATTERN COMMAND SETUP LOGS SCRATCH: run by tests/corpus/run.sh in
# a private mount namespace (unshare -m).  /usr, /etc and /var become
# overlays and /opt a tmpfs, all in memory, so dpkg installs WORK/*.deb
# for real (maintainer scripts included) without touching the system.
# Then SETUP (if any) and COMMAND run as the smoke test, the packages are purged, and every
# file they shipped must be gone.  Results go to LOGS/status as
# install=, smoke=, purge= and note= lines.  SCRATCH is an empty directory
# outside /usr, /etc and /var for the tmpfs that holds it all.

set -u
work=$1 app=$2 pattern=$3 cmd=$4 setup=$5 logs=$6 S=$7
NS=/opt/extras.ubuntu.com/$app

# Opened before the overlays hide /var/tmp.
exec 3>"$logs/install.log" 4>"$logs/smoke.log" 5>"$logs/status"
say () { echo "$1" >&5; }

mount -t tmpfs tmpfs "$S" || { say install=FAIL; say "note=no scratch root"; exit 1; }
cp "$work"/*.deb "$S"/ || exit 1
for d in usr etc var; do
	mkdir -p "$S/$d.upper" "$S/$d.work" &&
	mount -t overlay overlay \
		-o "lowerdir=/$d,upperdir=$S/$d.upper,workdir=$S/$d.work" "/$d" ||
		{ say install=FAIL; say "note=overlay on /$d failed"; exit 1; }
done
mount -t tmpfs tmpfs /opt || exit 1
# dpkg's database as a copy of its own: other builds install and purge on
# the system meanwhile, and an overlay whose lower directory changes under
# it answers ESTALE (neovim: "unable to install updated status of
# 'extras-neovim': Stale file handle").
mkdir -p "$S/dpkg" && cp -a /var/lib/dpkg/. "$S/dpkg/" &&
	mount --bind "$S/dpkg" /var/lib/dpkg ||
	{ say install=FAIL; say "note=no copy of dpkg's database"; exit 1; }

apt="apt-get -o DPkg::Lock::Timeout=60 -q -y"
packages=$(for deb in "$S"/*.deb; do dpkg-deb -f "$deb" Package; done)
if ! dpkg -i "$S"/*.deb >&3 2>&3; then
	# Runtime dependencies the build dependencies did not bring.
	$apt -f install >&3 2>&3
fi
for p in $packages; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)
	if [ "$status" != "ii " ]; then
		say install=FAIL
		say "note=install: $p is '${status:-not installed}': $(grep -m1 -E 'error|rror:|dependency problems' "$logs/install.log")"
		exit 1
	fi
done
say install=ok
dpkg -L $packages 2>/dev/null | sort -u >"$S/shipped"

# A home of its own and, apart, a scratch directory, as in the VM of
# CONFINED=1 (tests/corpus/confined-boot.sh).
H=$S/home T=$S/tmp && mkdir -p "$H" "$T" && chmod 755 "$S"
env -i PATH=/usr/bin:/bin HOME="$H" T="$T" NS="$NS" TERM=dumb \
	timeout -k 10 120 sh -c "cd && ${setup:+$setup && }$cmd" >"$S/smoke.out" 2>&1 </dev/null
cat "$S/smoke.out" >&4
if grep -q -E -e "$pattern" "$S/smoke.out"; then
	say smoke=ok
else
	say smoke=FAIL
	last=$(grep -v '^[[:space:]]*$' "$S/smoke.out" | tail -n 1 | cut -c1-200)
	say "note=smoke: no '$pattern' in: ${last:-(no output)}"
fi

if ! dpkg --purge $packages >&3 2>&3; then
	say purge=FAIL
	say "note=purge: $(grep -m1 -E 'error' "$logs/install.log")"
	exit 1
fi
left=$(while read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && echo "$f"
done <"$S/shipped" | head -n 3)
if [ -n "$left" ]; then
	say purge=FAIL
	say "note=purge: left behind: $(echo $left)"
else
	say purge=ok
fi
