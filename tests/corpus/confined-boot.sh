#!/bin/sh
# confined-boot.sh: what the VM of `make corpus CONFINED=1` runs at boot
# (as /payload/boot.sh, see tests/confinement/image.sh): for each app of
# /payload/corpus/PACKAGE (debs/, app, pattern, cmd, setup), install its
# .debs as root, check its profile is loaded in enforce mode, run SETUP
# as root and the smoke COMMAND as the ordinary user alice, with the
# profile enforced, purge; one line per package in /payload/results:
#   PACKAGE INSTALL PROFILE SMOKE DENIED NOTE  (separated by tabs)
# with DENIED the number of AppArmor DENIED lines the smoke caused, all
# of them in /payload/denied/PACKAGE.
cd /payload || exit 1
sysctl -q -w kernel.printk_ratelimit=0
PROFILES=/sys/kernel/security/apparmor/profiles
U=alice
TAB=$(printf '\t')
: >/payload/results
mkdir -p /payload/denied /payload/logs
echo "dh-extras: confined corpus starts"

result () {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>/payload/results
}

for dir in /payload/corpus/*/; do
	pkg=$(basename "$dir")
	app=$(cat "$dir/app") pattern=$(cat "$dir/pattern")
	cmd=$(cat "$dir/cmd") setup=$(cat "$dir/setup")
	NS=/opt/extras.ubuntu.com/$app
	log=/payload/logs/$pkg.log
	echo "corpus: $pkg" >/dev/console 2>/dev/null
	packages=$(for deb in "$dir"/debs/*.deb; do dpkg-deb -f "$deb" Package; done)
	if ! dpkg -i "$dir"/debs/*.deb >"$log" 2>&1; then
		result "$pkg" FAIL - - - "install: $(grep -m1 -E 'error|dependency problems|depends on' "$log")"
		dpkg --purge $packages >/dev/null 2>&1
		continue
	fi
	mode=$(sed -n "s/^opt\.extras\.ubuntu\.com\.$app (\(.*\))\$/\1/p" "$PROFILES")
	profile=ok
	[ "$mode" = enforce ] || profile=FAIL

	# A home as a first login finds it, /etc/skel's, new for each app:
	# the profile knows homes by their place (@{HOME}, /home/*/), and an
	# app creates its XDG directories itself (the profile lets it).  The
	# smoke's scratch directory is one the app may write, a temporary
	# directory of its own (/tmp/APP.*), as the profile grants.
	# Its runtime directory, /run/user/UID, as pam_systemd makes it at a
	# login and names it in XDG_RUNTIME_DIR: a desktop session has one,
	# and toolkits fall back to other places without it (Qt to
	# /tmp/runtime-USER, dconf to ~/.cache/dconf).
	H=/home/$U T=/tmp/$app.corpus R=/run/user/$(id -u "$U")
	rm -rf "$H" "$T" "$R" && cp -a /etc/skel "$H" && chown -R "$U:$U" "$H" &&
	runuser -u "$U" -- mkdir "$T" &&
	install -d -m 0700 -o "$U" -g "$U" "$R"
	if [ -n "$setup" ]; then
		env -i PATH=/usr/bin:/bin HOME=/root T="$T" NS="$NS" \
			sh -c "$setup" >>"$log" 2>&1 </dev/null
	fi
	mark="dh-extras-mark-$(cat /proc/sys/kernel/random/uuid)"
	echo "$mark" >/dev/kmsg
	# TCG is slow: five times the scratch root's limit.
	out=/payload/logs/$pkg.out
	runuser -u "$U" -- env -i PATH=/usr/bin:/bin HOME="$H" T="$T" NS="$NS" \
		XDG_RUNTIME_DIR="$R" TERM=dumb LANG=C.UTF-8 timeout -k 10 600 sh -c "cd && $cmd" \
		>"$out" 2>&1 </dev/null
	cat "$out" >>"$log"
	sleep 1
	dmesg | sed -n "/$mark\$/,\$p" | grep 'apparmor="DENIED"' >"/payload/denied/$pkg"
	denied=$(wc -l <"/payload/denied/$pkg")
	note=
	if grep -q -E -e "$pattern" "$out"; then
		smoke=ok
	else
		smoke=FAIL
		note="smoke: no '$pattern' in: $(grep -v '^[[:space:]]*$' "$out" | tail -n 1 | cut -c1-160)"
	fi
	[ "$profile" = ok ] || note="profile: '${mode:-not loaded}', not enforce; $note"
	if [ "$denied" -gt 0 ]; then
		# A file's name, or a socket's family and type (no name).
		first=$(head -n 1 "/payload/denied/$pkg" |
			grep -o -e 'operation="[^"]*".*name="[^"]*"' \
				-e 'operation="[^"]*".*sock_type="[^"]*"' |
			sed 's/ profile="[^"]*"//; s/ pid=[0-9]*//' | cut -c1-160)
		note="${note:+$note; }DENIED $first"
	fi
	if ! dpkg --purge $packages >>"$log" 2>&1; then
		note="${note:+$note; }purge failed: $(grep -m1 error "$log")"
	fi
	result "$pkg" ok "$profile" "$smoke" "$denied" "$note"
done
dmesg >/payload/dmesg.out
echo "exit=0" >/payload/status
echo "dh-extras: confined corpus done"
