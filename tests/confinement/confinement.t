#!/bin/sh
# confinement.t: the AppArmor profiles of extras packages on a real
# AppArmor kernel.  Runs inside the VM of `make check-confinement`
# (tests/confinement/run), as root, with the packages to install in
# $DEBS: extras-probe (tests/fixtures/probe, no privileges), the same as
# extras-netprobe (network) and extras-xprobe (x11), extras-greet and
# extras-quill (tests/fixtures) and extras-hello (Debian's hello,
# converted).
#
# Each profile must be loaded in enforce mode on install; the apps must
# run with no DENIED line in the kernel log; the probe must be allowed
# what extras.yaml(5) promises an app without privileges and denied the rest
# (each denial must be AppArmor's: a DENIED line naming the path); remove
# and purge must unload the profile; an install whose profile cannot be
# loaded must fail.

. "$TOP/tests/lib.sh"

: "${DEBS:?the directory of the .debs to install}"
ROOT=/opt/extras.ubuntu.com
PROFILES=/sys/kernel/security/apparmor/profiles
PROBE=$ROOT/probe/bin/probe
U=alice
H=/home/$U

# loaded NAME: the mode NAME is loaded in, nothing when not loaded.
loaded () {
	sed -n "s/^$1 (\(.*\))\$/\1/p" "$PROFILES"
}

# enforced NAME: NAME loaded in enforce mode.
enforced () {
	mode=$(loaded "$1") &&
	if [ "$mode" != enforce ]; then
		echo "profile $1: '${mode:-not loaded}', not enforce" >&2
		grep extras "$PROFILES" >&2
		return 1
	fi
}

# mark: a line in the kernel log after which denials() looks (unique:
# each test runs in a subshell of its own).
mark () {
	MARK="dh-extras-mark-$(cat /proc/sys/kernel/random/uuid)" &&
	echo "$MARK" >/dev/kmsg
}

# denials: the DENIED lines of the kernel log since the last mark (audit
# records reach the log asynchronously: wait a little first).
denials () {
	sleep 0.5 &&
	# grep's 1 is "no denial", the answer most tests want.
	{ dmesg | sed -n "/$MARK\$/,\$p" | grep 'apparmor="DENIED"' ||
		test $? = 1; }
}

# no_denials: fails, showing them, if there was a DENIED line since mark.
no_denials () {
	denials >"$TRASH/denials" &&
	if [ -s "$TRASH/denials" ]; then
		echo "DENIED since $MARK:" >&2
		cat "$TRASH/denials" >&2
		return 1
	fi
}

# as_user COMMAND...: run COMMAND as $U in its home, with a plain
# session's environment.
as_user () {
	runuser -u "$U" -- sh -c 'cd && exec env -i HOME="$HOME" USER="$USER" \
		PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"' sh "$@"
}

# as_root COMMAND...: the same as root (HOME=/root), which the
# discretionary permissions would not stop.
as_root () {
	(cd / && env -i HOME=/root USER=root PATH=/usr/bin:/bin LANG=C.UTF-8 "$@")
}

# allowed AS ACTION [PATH]: the probe ($PROBE), run by as_AS, may; no
# denial.
allowed () {
	who=$1 &&
	shift &&
	mark &&
	if ! "as_$who" "$PROBE" "$@"; then
		echo "probe $* as $who: refused" >&2
		denials >&2
		return 1
	fi &&
	no_denials
}

# denied AS ACTION PATH [NAME]: the probe, run by as_AS, may not, and
# AppArmor said so: a DENIED line naming NAME (default PATH).
denied () {
	who=$1 action=$2 path=$3 name=${4:-$3} &&
	mark &&
	if "as_$who" "$PROBE" "$action" "$path" 2>/dev/null; then
		echo "probe $action $path as $who: allowed" >&2
		return 1
	fi &&
	denials >"$TRASH/denials" &&
	if ! grep -q "name=\"$name\"" "$TRASH/denials"; then
		echo "probe $action $path as $who: refused, but no DENIED line for $name" >&2
		cat "$TRASH/denials" >&2
		return 1
	fi
}

deb () {
	ls "$DEBS"/"$1"_*.deb
}

test_expect_success 'AppArmor is enabled' '
	aa-enabled &&
	test -r "$PROFILES"
'

test_expect_success 'the user has files, other apps have theirs' '
	runuser -u "$U" -- sh -c "
		mkdir -p ~/Documents ~/.config/greet ~/.cache/greet /tmp/greet.test &&
		echo secret >~/Documents/letter.txt &&
		echo x >~/.config/greet/settings &&
		echo x >~/.cache/greet/cache &&
		echo x >/tmp/greet.test/file &&
		echo x >/tmp/$U-file
	"
'

test_expect_success 'extras-probe installs' '
	dpkg -i "$(deb extras-probe)"
'

test_expect_success 'its profile is loaded in enforce mode' '
	enforced opt.extras.ubuntu.com.probe
'

test_expect_success 'the probe runs under it' '
	as_user "$PROBE" label >label &&
	echo "opt.extras.ubuntu.com.probe (enforce)" >expected &&
	cmp expected label
'

test_expect_success 'the probe may read its namespace' '
	allowed user read $PROBE &&
	allowed user list $ROOT/probe/bin
'

test_expect_success 'the probe may write its own XDG directories' '
	for d in .config .cache .local/share .local/state; do
		allowed user mkdir $H/$d/probe &&
		allowed user write $H/$d/probe/file || return 1
	done
'

test_expect_success 'the probe may write them spelt in any case, not another'"'"'s' '
	allowed user mkdir $H/.config/Probe &&
	allowed user write $H/.config/Probe/settings.conf &&
	allowed user mkdir $H/.local/share/PROBE &&
	allowed user write $H/.local/share/PROBE/data &&
	allowed user write /tmp/Probe.XyZ123 &&
	allowed user mkdir /tmp/.Probe &&
	allowed user write /tmp/.Probe/lock &&
	denied user mkdir $H/.config/Greet $H/.config/Greet/ &&
	denied user mkdir $H/.config/Probes $H/.config/Probes/
'

test_expect_success 'the probe may save its KDE settings, ~/.config/proberc, as KConfig does' '
	allowed user save $H/.config/proberc &&
	allowed user save $H/.config/proberc &&
	grep_q "^saved=true\$" $H/.config/proberc &&
	test ! -e $H/.config/proberc.lock &&
	denied user save $H/.config/greetrc $H/.config/greetrc.lock &&
	denied user save $H/.config/proberc2 $H/.config/proberc2.lock
'

test_expect_success 'the probe may write its own ~/.probe, not another'"'"'s' '
	allowed user mkdir $H/.probe &&
	allowed user write $H/.probe/file &&
	denied user mkdir $H/.greet $H/.greet/ &&
	denied user mkdir $H/.probex $H/.probex/
'

test_expect_success 'the probe may use temporary files named after it' '
	allowed user mkdir /tmp/probe.test &&
	allowed user write /tmp/probe.test/file &&
	allowed user write /tmp/probe-file &&
	allowed user write /var/tmp/probe-file
'

test_expect_success 'the probe may not write its namespace (even as root)' '
	denied root write $ROOT/probe/bin/new
'

test_expect_success 'the probe may not read the user'"'"'s files' '
	denied user read $H/Documents/letter.txt &&
	denied user list $H/Documents $H/Documents/ &&
	denied user write $H/new.txt &&
	denied user read $H/.bashrc
'

test_expect_success 'the probe may not read another app'"'"'s files' '
	denied user read $H/.config/greet/settings &&
	denied user read $H/.cache/greet/cache &&
	denied user read /tmp/greet.test/file
'

test_expect_success 'the probe may not read the user'"'"'s other /tmp files' '
	denied user read /tmp/$U-file &&
	denied user write /tmp/new-file &&
	denied user list /tmp /tmp/
'

test_expect_success 'the probe may not read /etc/shadow (even as root)' '
	denied root read /etc/shadow
'

test_expect_success 'the probe may not run system programs' '
	denied user exec /usr/bin/id &&
	denied user exec /usr/bin/apt-get
'

test_expect_success 'the probe may not use the network without "network"' '
	mark &&
	! as_user "$PROBE" net 2>/dev/null &&
	denials >denials &&
	grep_q "operation=\"create\"" denials
'

# refused AS ACTION PATH: the probe, run by as_AS, may not, and no DENIED
# line says so (what a profile refuses quietly, with a deny rule).
refused () {
	who=$1 action=$2 path=$3 &&
	mark &&
	if "as_$who" "$PROBE" "$action" "$path" 2>/dev/null; then
		echo "probe $action $path as $who: allowed" >&2
		return 1
	fi &&
	no_denials
}

test_expect_success 'extras-netprobe (network) installs, its profile enforced' '
	dpkg -i "$(deb extras-netprobe)" &&
	enforced opt.extras.ubuntu.com.netprobe
'

test_expect_success 'with "network", the probe may use the network' '
	PROBE=$ROOT/netprobe/bin/probe &&
	allowed user net
'

test_expect_success 'with "network", the probe still may not read the user'"'"'s files' '
	PROBE=$ROOT/netprobe/bin/probe &&
	denied user read $H/Documents/letter.txt &&
	denied root read /etc/shadow
'

test_expect_success 'extras-xprobe (x11) installs, its profile enforced' '
	dpkg -i "$(deb extras-xprobe)" &&
	enforced opt.extras.ubuntu.com.xprobe
'

test_expect_success 'with "x11", the probe may read fonts and the X authority' '
	PROBE=$ROOT/xprobe/bin/probe &&
	runuser -u "$U" -- sh -c "echo x >~/.Xauthority" &&
	allowed user read $H/.Xauthority &&
	allowed user list /usr/share/fonts
'

test_expect_success 'with "x11", not the recent documents nor the list of ~/.config' '
	PROBE=$ROOT/xprobe/bin/probe &&
	runuser -u "$U" -- sh -c "mkdir -p ~/.local/share &&
		echo x >~/.local/share/recently-used.xbel" &&
	refused user read $H/.local/share/recently-used.xbel &&
	refused user list $H/.config &&
	refused user list $H/.cache &&
	denied user read $H/Documents/letter.txt
'

test_expect_success 'with "x11", fontconfig works with no DENIED line, caches not written' '
	PROBE=$ROOT/xprobe/bin/probe &&
	rm -rf /var/cache/fontconfig/* $H/.cache/fontconfig &&
	allowed user fonts &&
	test ! -e $H/.cache/fontconfig/CACHEDIR.TAG &&
	test -z "$(ls $H/.cache/fontconfig 2>/dev/null)"
'

test_expect_success 'with "x11", no network' '
	PROBE=$ROOT/xprobe/bin/probe &&
	mark &&
	! as_user "$PROBE" net 2>/dev/null &&
	denials >denials &&
	grep_q "operation=\"create\"" denials
'

test_expect_success 'apps named autostart and applications install, enforced' '
	dpkg -i "$(deb extras-autostart)" "$(deb extras-applications)" &&
	enforced opt.extras.ubuntu.com.autostart &&
	enforced opt.extras.ubuntu.com.applications
'

# Their own XDG directories would be where the session finds programs
# to run outside any profile: the base profile refuses them, quietly.
test_expect_success 'an app named after a session directory may not write it' '
	PROBE=$ROOT/autostart/bin/probe &&
	refused user mkdir $H/.config/autostart &&
	runuser -u "$U" -- mkdir -p $H/.config/autostart \
		$H/.local/share/applications $H/.config/applications &&
	refused user write $H/.config/autostart/evil.desktop &&
	PROBE=$ROOT/applications/bin/probe &&
	refused user write $H/.local/share/applications/evil.desktop &&
	allowed user write $H/.config/applications/own.conf &&
	test ! -e $H/.config/autostart/evil.desktop &&
	test ! -e $H/.local/share/applications/evil.desktop
'

test_expect_success 'extras-greet installs, its profile enforced' '
	dpkg -i "$(deb extras-greet)" &&
	enforced opt.extras.ubuntu.com.greet
'

test_expect_success 'the probe may not read another app'"'"'s namespace' '
	denied user read $ROOT/greet/bin/greet
'

test_expect_success 'greet runs with no DENIED line' '
	mark &&
	as_user $ROOT/greet/bin/greet >out 2>&1 &&
	cat out &&
	no_denials
'

test_expect_success 'extras-hello (Debian'"'"'s hello) installs, its profile enforced' '
	dpkg -i "$(deb extras-hello)" &&
	enforced opt.extras.ubuntu.com.hello
'

test_expect_success 'hello runs with no DENIED line' '
	mark &&
	as_user $ROOT/hello/bin/hello >out 2>&1 &&
	grep_q "^Hello, world!\$" out &&
	no_denials
'

test_expect_success 'extras-quill (Python) installs, its profile enforced' '
	dpkg -i "$(deb extras-quill)" &&
	enforced opt.extras.ubuntu.com.quill
'

test_expect_success 'quill runs with no DENIED line' '
	mark &&
	as_user $ROOT/quill/bin/quill >out 2>&1 &&
	grep_q "^black ink\$" out &&
	no_denials
'

# What dh-extras(7) says: AppArmor attaches a profile to the program the
# kernel runs, by its path; a script of the namespace handed by hand to
# its interpreter is read, not run, and is not confined.
test_expect_success 'a namespaced script run through its interpreter by hand is not confined' '
	as_user sh $PROBE label >label &&
	echo unconfined >expected &&
	cmp expected label
'

test_expect_success 'remove unloads the profile' '
	dpkg -r extras-greet &&
	test -z "$(loaded opt.extras.ubuntu.com.greet)"
'

test_expect_success 'purge unloads the profile' '
	dpkg --purge extras-probe &&
	test ! -e /etc/apparmor.d/opt.extras.ubuntu.com.probe &&
	test -z "$(loaded opt.extras.ubuntu.com.probe)"
'

test_expect_success 'an install whose profile cannot be loaded fails' '
	echo "this is not a rule" >/etc/apparmor.d/local/opt.extras.ubuntu.com.greet &&
	expect_status 1 dpkg -i "$(deb extras-greet)" &&
	test -z "$(loaded opt.extras.ubuntu.com.greet)" &&
	: >/etc/apparmor.d/local/opt.extras.ubuntu.com.greet &&
	dpkg --configure -a &&
	enforced opt.extras.ubuntu.com.greet
'

test_done
