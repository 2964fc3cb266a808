#!/bin/sh
# extras-profile: the profile of each privilege compiles, hostile
# declarations are refused with the right line, the profile grants nothing
# beyond the template, the declared privileges and the app's own paths,
# and the same input gives the same bytes.

. "$TOP/tests/lib.sh"

TEMPLATES=$DH_EXTRAS_DATADIR/templates
FEATURES=$TEMPLATES/apparmor/apparmor-features
NS=/opt/extras.ubuntu.com/hello
NAME=opt.extras.ubuntu.com.hello

# compiles FILE: apparmor_parser accepts the profile, without a word, for
# the pinned kernel features whatever the host's kernel.
compiles () {
	PATH=$PATH:/usr/sbin:/sbin apparmor_parser -QK -M "$FEATURES" "$1" 2>"$1.err" || {
		cat "$1.err" >&2
		return 1
	} &&
	if [ -s "$1.err" ]; then
		cat "$1.err" >&2
		return 1
	fi
}

# declare PRIVILEGE...: write d.yaml for app hello.
declare () {
	{
		echo "app: hello" &&
		if [ $# -eq 0 ]; then
			echo "privileges: []"
		else
			echo "privileges:"
		fi &&
		for p in "$@"; do echo "  - $p" || return 1; done
	} >d.yaml
}

# body FILE: the rules of a template, without its header.
body () {
	sed -n '/^[^#]/,$p' "$1"
}

test_expect_success 'the catalogue lists the privileges the design names' '
	extras-profile --list-privileges >list &&
	for p in x11 network print camera spell-checking audio opengl \
	         wayland dbus-session pseudo-terminals; do
		grep_q "^$p	common	" list || return 1
	done &&
	grep_q "^user-files	reserved	" list
'
cut -f1 list >privileges 2>/dev/null
all=$(tr '\n' ' ' <privileges)

test_expect_success 'every privilege file has a header naming its class' '
	for p in $all; do
		f=$TEMPLATES/apparmor/privileges/$p.apparmor
		grep_q "^# Privilege: $p\$" "$f" &&
		grep_q "^# Class: \(common\|reserved\)\$" "$f" &&
		grep_q "^# Grants: " "$f" || return 1
	done
'

test_expect_success 'without privileges, the profile compiles' '
	declare &&
	extras-profile d.yaml >none.aa &&
	grep_q "^profile $NAME $NS/\*\* {\$" none.aa &&
	grep_q "^abi <abi/3.0>,\$" none.aa &&
	grep_q "^include <tunables/global>\$" none.aa &&
	grep_q "^  include <abstractions/base>\$" none.aa &&
	grep_q "^  $NS/\*\* mrix,\$" none.aa &&
	H="\[hH\]\[eE\]\[lL\]\[lL\]\[oO\]" &&
	grep_q "^  owner @{HOME}/.config/$H/\*\* rwk,\$" none.aa &&
	grep_q "^  owner @{HOME}/.local/share/$H/\*\* rwk,\$" none.aa &&
	grep_q "^  owner @{HOME}/.cache/$H/\*\* rwk,\$" none.aa &&
	grep_q "^  owner @{HOME}/.$H/\*\* rwk,\$" none.aa &&
	grep_q "^  owner /{,var/}tmp/$H{.,-}\*/\*\* rwk,\$" none.aa &&
	grep_q "^  owner /{,var/}tmp/.$H/\*\* rwk,\$" none.aa &&
	grep_q "^  owner @{PROC}/@{pid}/fd/ r,\$" none.aa &&
	! grep -q "user-tmp" none.aa &&
	grep_q "^  include if exists <local/$NAME>\$" none.aa &&
	compiles none.aa
'

for p in $(cat privileges); do
	test_expect_success "privilege $p alone compiles" "
		declare $p &&
		extras-profile --allow-reserved d.yaml >$p.aa &&
		grep_q '^  # Privilege $p (' $p.aa &&
		compiles $p.aa
	"
done

test_expect_success 'all privileges together compile' '
	declare $all &&
	extras-profile --allow-reserved d.yaml >all.aa &&
	compiles all.aa
'

test_expect_success 'a grant accepts the reserved privileges it names' '
	declare network user-files system-monitor &&
	extras-profile --allow-reserved d.yaml >allowed.aa &&
	extras-profile --grant system-monitor --grant user-files d.yaml >granted.aa &&
	cmp allowed.aa granted.aa &&
	expect_status 2 extras-profile --grant user-files d.yaml >out 2>err &&
	test ! -s out &&
	grep_q "privilege .system-monitor. is reserved and not allowed here" err
'

test_expect_success 'another root and app id compile' '
	printf "app: libfoo2.0+x\nroot: /usr/lib/extras\nprivileges: [x11]\n" \
		>other.yaml &&
	extras-profile other.yaml >other.aa &&
	grep_q "^profile usr.lib.extras.libfoo2.0+x /usr/lib/extras/libfoo2.0+x/\*\* {" other.aa &&
	compiles other.aa
'

test_expect_success 'executables are listed, sorted, and must be in the namespace' '
	declare x11 &&
	extras-profile --executable $NS/bin/zz --executable $NS/bin/aa \
		d.yaml >exe.aa &&
	grep -n "^#   $NS/bin/" exe.aa >listed &&
	test "$(wc -l <listed)" -eq 2 &&
	head -1 listed | grep -q "bin/aa" &&
	tail -1 listed | grep -q "bin/zz" &&
	compiles exe.aa
'

test_expect_success 'generating twice gives the same bytes' '
	declare $all &&
	extras-profile --allow-reserved d.yaml >one.aa &&
	extras-profile --allow-reserved d.yaml >two.aa &&
	cmp one.aa two.aa
'

test_expect_success 'the order of declaration does not change the profile' '
	declare network x11 audio && extras-profile d.yaml >a.aa &&
	declare audio x11 network && extras-profile d.yaml >b.aa &&
	cmp a.aa b.aa
'

# Hostile input at the command's level: option values, privileges the
# catalogue refuses, and declarations the loader refuses (its full table
# is in t-declaration).  Each line: expected message | yaml | options.
cat >hostile <<'EOF'
d.yaml:2: unknown privilege 'nope'|app: hello\nprivileges: [x11, nope]|
d.yaml:3: unknown privilege 'x'|app: hello\nprivileges:\n  - x|
d.yaml:2: privilege 'user-files' is reserved and not allowed here|app: hello\nprivileges: [user-files]|
d.yaml:2: privilege 'dbus-session-all' is reserved and not allowed here|app: hello\nprivileges: [dbus-session-all]|
d.yaml:2: privilege 'removable-media' is reserved and not allowed here|app: hello\nprivileges: [removable-media]|
d.yaml:2: privilege 'user-files' is reserved and not allowed here|app: hello\nprivileges: [user-files]|--grant system-monitor
granted privilege 'system-monitr' is unknown|app: hello|--grant system-monitr
granted privilege 'network' is not reserved: any app may declare it|app: hello|--grant network
granted privilege '../x' is unknown|app: hello|--grant ../x
d.yaml:2: privilege '../profile' may hold only a-z, 0-9 and '-'|app: hello\nprivileges: [../profile]|
d.yaml:1: app 'hello' does not match --app 'other'|app: hello|--app other
d.yaml:1: root '/opt/a' does not match --root '/opt/b'|root: /opt/a\napp: hello|--root /opt/b
d.yaml:2: unknown key 'privilege'|app: hello\nprivilege: [x11]|
d.yaml:2: duplicate privilege 'x11' (first on line 2)|app: hello\nprivileges: [x11, x11]|
d.yaml:2: 'privileges' must be a list of strings, not a mapping|app: hello\nprivileges: {x11: true}|
d.yaml:2: aliases are not allowed|app: hello\nroot: *a|
d.yaml:1: anchors are not allowed|app: &a hello|
d.yaml:1: tags are not allowed|app: !!str hello|
d.yaml:2: more than one YAML document|app: hello\n---\napp: hello|
d.yaml:1: app contains a control character|app: "hel\\nlo"|
--app 'hel,lo' is not a valid Debian package name||--app hel,lo
--root '/opt/x y' may hold only letters, digits, '/', '-', '_', '.' and '+'|app: hello|--root /opt/x%y
executable '/opt/extras.ubuntu.com/hello/bin/a,b' contains a comma|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/a,b
executable '/opt/extras.ubuntu.com/hello/bin/*' contains a glob character|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/*
executable '/opt/extras.ubuntu.com/hello/bin/{a}' contains a brace|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/{a}
executable '/opt/extras.ubuntu.com/hello/bin/@{HOME}' contains '@'|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/@{HOME}
executable '/opt/extras.ubuntu.com/hello/../x' contains '..'|app: hello|--executable /opt/extras.ubuntu.com/hello/../x
executable '/opt/extras.ubuntu.com/hello/bin/#a' contains '#'|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/#a
executable '/opt/extras.ubuntu.com/hello/bin/"a' contains a quote|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/"a
executable '/opt/extras.ubuntu.com/hellox/bin/a' is not in the namespace|app: hello|--executable /opt/extras.ubuntu.com/hellox/bin/a
executable '/usr/bin/sh' is not in the namespace|app: hello|--executable /usr/bin/sh
executable '/opt/extras.ubuntu.com/hello/' is not in the namespace|app: hello|--executable /opt/extras.ubuntu.com/hello/
executable '/opt/extras.ubuntu.com/hello/bin/./a' contains a '.' component|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/./a
executable '/opt/extras.ubuntu.com/hello/bin/a' is listed twice|app: hello|--executable /opt/extras.ubuntu.com/hello/bin/a --executable /opt/extras.ubuntu.com/hello/bin/a
app id 'config' is reserved: the name holds the XDG configuration directory (~/.config), which its profile would reach; choose another app id (templates/identity/reserved-apps)|app: config|
app id 'ssh' is reserved: the name holds OpenSSH's keys and authorized_keys (~/.ssh), which its profile would reach; choose another app id (templates/identity/reserved-apps)|privileges: []|--app ssh
app id 'x11-unix' is reserved: the name holds the X server's sockets (/tmp/.X11-unix), which its profile would reach; choose another app id (templates/identity/reserved-apps)|app: x11-unix|
app id 'slack' is reserved: the name holds Slack's session and code cache (~/.config/Slack), which its profile would reach; choose another app id (templates/identity/reserved-apps)|app: slack|
EOF

i=0
while IFS='|' read -r message yaml options; do
	i=$((i + 1))
	# '%' stands for a space inside an option value.
	test_expect_success "hostile $i refused: $message" '
		printf "$yaml\n" >d.yaml &&
		set -f && set -- &&
		for w in $options; do
			set -- "$@" "$(printf "%s" "$w" | tr "%" " ")" || return 1
		done &&
		set +f &&
		expect_status 2 extras-profile "$@" d.yaml >out 2>err &&
		test ! -s out &&
		test "$(wc -l <err)" -eq 1 &&
		test "$(cat err)" = "extras-profile: error: $message" ||
		{ cat err >&2; false; }
	'
done <hostile

# The property: a profile's rules are the template's, filled in for this
# app, and those of the declared privileges; each declared privilege's
# rules are all there; nothing names the namespace or the home directory
# but the template.  Checked on subsets of the catalogue chosen by a fixed
# seed.
body "$TEMPLATES/apparmor/profile.apparmor" | grep -v '^@' |
	sed -e "s|@NAME@|$NAME|g" -e "s|@APP@|hello|g" \
	-e "s|@APP_ANY_CASE@|[hH][eE][lL][lL][oO]|g" -e "s|@NAMESPACE@|$NS|g" |
	grep -v '^ *#' | grep -v '^ *$' | sed 's/^ *//' >template.rules

awk -v seed=20240501 -v all="$all" 'BEGIN {
	srand(seed); n = split(all, p, " ");
	for (s = 0; s < 40; s++) {
		line = "";
		for (i = 1; i <= n; i++)
			if (rand() < 0.35) line = line " " p[i];
		print line;
	}
}' >subsets

s=0
while read -r subset; do
	s=$((s + 1))
	test_expect_success "subset $s grants only its privileges:$subset" '
		declare $subset &&
		extras-profile --allow-reserved d.yaml >p.aa &&
		cp template.rules allowed &&
		for p in $subset; do
			body "$TEMPLATES/apparmor/privileges/$p.apparmor" |
				grep -v "^ *#" | sed "s/^ *//" >>allowed || return 1
		done &&
		grep -v "^ *#" p.aa | grep -v "^ *\$" | sed "s/^ *//" >rules &&
		! grep -vxF -f allowed rules &&
		! grep -vxF -f rules allowed &&
		! grep -F hello rules | grep -vxF -f template.rules
	'
done <subsets

test_expect_success 'a sample of subsets compiles' '
	for n in 3 17 29; do
		declare $(sed -n "${n}p" subsets) &&
		extras-profile --allow-reserved d.yaml >s.aa &&
		compiles s.aa || return 1
	done
'

test_expect_success 'a missing template directory is one clear line' '
	declare x11 &&
	DH_EXTRAS_DATADIR=$TRASH/none expect_status 2 extras-profile d.yaml \
		2>err &&
	test "$(cat err)" = "extras-profile: error: $TRASH/none/templates/apparmor/profile.apparmor: no such template"
'

test_expect_success 'an absent declaration declares nothing' '
	extras-profile --app hello absent.yaml >absent.aa &&
	grep_q "# No privileges declared." absent.aa &&
	compiles absent.aa
'

test_done
