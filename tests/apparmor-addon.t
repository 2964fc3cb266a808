#!/bin/sh
# dh_extras_apparmor: a package built with the add-on ships the profile
# extras-profile prints for its declaration, compiled for the pinned
# kernel features, with the postinst and postrm dh_extras_scripts
# generates to load it and clean up after it, and no other script; a
# declaration the profile cannot be made from fails the build with the
# file and line; -p, -N and --no-act behave as for every debhelper
# command; installing and purging the package runs the scripts.

. "$TOP/tests/lib.sh"

FEATURES=$DH_EXTRAS_DATADIR/templates/apparmor/apparmor-features
NS=/opt/extras.ubuntu.com/greet
NAME=opt.extras.ubuntu.com.greet
# The declared fixture: another app id and root, two privileges.
HUSH_NS=/opt/extras-test/hush
HUSH_NAME=opt.extras-test.hush

# compiles FILE: apparmor_parser accepts the profile, without a word, for
# the pinned kernel features whatever the host's kernel.
compiles () {
	PATH=$PATH:/usr/sbin:/sbin apparmor_parser -QK -M "$FEATURES" "$1" \
		2>"$1.err" || {
		cat "$1.err" >&2
		return 1
	} &&
	if [ -s "$1.err" ]; then
		cat "$1.err" >&2
		return 1
	fi
}

# unpack DEB DIR: the files and the control area of DEB under DIR.
unpack () {
	rm -rf "$2" &&
	dpkg-deb -x "$1" "$2" &&
	dpkg-deb -e "$1" "$2/DEBIAN"
}

# fixture NAME DECLARATION: greet renamed to extras-NAME, with
# debian/extras.yaml holding DECLARATION (printf escapes), in $TRASH/NAME.src.
fixture () {
	rm -rf "$TRASH/$1.src" &&
	cp -a "$TOP/tests/fixtures/greet" "$TRASH/$1.src" &&
	sed -i "s/extras-greet/extras-$1/g" "$TRASH/$1.src/debian/control" \
		"$TRASH/$1.src/debian/changelog" &&
	printf "$2" >"$TRASH/$1.src/debian/extras.yaml"
}

# reset: undo what dh_extras_apparmor did in the built greet tree.
reset () {
	rm -rf greet/debian/extras-greet/etc \
		greet/debian/.debhelper/extras/$NAME &&
	if [ -f greet/debian/extras-greet.substvars ]; then
		sed -i '/^misc:Depends=/d' greet/debian/extras-greet.substvars
	fi
}

# untouched: nothing of dh_extras_apparmor's in the built greet tree.
untouched () {
	for f in greet/debian/extras-greet/etc \
	         greet/debian/.debhelper/extras/$NAME; do
		test ! -e "$f" || { echo "$f written" >&2; return 1; }
	done &&
	! grep -q '^misc:Depends=' greet/debian/extras-greet.substvars 2>/dev/null
}

test_expect_success 'greet, without a declaration, builds with the add-on' '
	build_fixture greet || { tail -30 greet.log; false; } &&
	grep_q "^   dh_extras_apparmor\$" greet.log &&
	mv extras-greet_*.deb greet.deb &&
	deb_files greet.deb >greet.files &&
	grep_q "^etc/apparmor.d/$NAME\$" greet.files
'

test_expect_success 'its profile is what extras-profile prints for no privileges' '
	unpack greet.deb greet.x &&
	extras-profile --app greet --executable $NS/bin/.greet --executable $NS/bin/greet \
		greet/debian/extras.yaml >greet.expected &&
	cmp greet.expected greet.x/etc/apparmor.d/$NAME &&
	grep_q "^  # No privileges declared.\$" greet.x/etc/apparmor.d/$NAME
'

test_expect_success 'its profile lists the executable and compiles' '
	grep_q "^#   $NS/bin/greet\$" greet.x/etc/apparmor.d/$NAME &&
	# greet ships an icon: its launcher and the program behind it.
	grep_q "^#   $NS/bin/\.greet\$" greet.x/etc/apparmor.d/$NAME &&
	grep_q "^profile $NAME $NS/\*\* {\$" greet.x/etc/apparmor.d/$NAME &&
	compiles greet.x/etc/apparmor.d/$NAME
'

test_expect_success 'the profile is a conffile, mode 0644' '
	grep_q "^/etc/apparmor.d/$NAME\$" greet.x/DEBIAN/conffiles &&
	test "$(stat -c %a greet.x/etc/apparmor.d/$NAME)" = 644
'

test_expect_success 'postinst creates the local include and loads the profile on configure' '
	p=greet.x/DEBIAN/postinst &&
	echo "app: greet" >greet.yaml &&
	extras-profile --app greet --script postinst --package extras-greet greet.yaml >expect &&
	cmp expect $p &&
	extras-profile --app greet --script postrm --package extras-greet greet.yaml >expect &&
	cmp expect greet.x/DEBIAN/postrm &&
	test ! -e greet.x/DEBIAN/preinst && test ! -e greet.x/DEBIAN/prerm &&
	grep_q "^if \[ \"\$1\" = \"configure\" \]; then\$" $p &&
	grep_q "APP_PROFILE=\"/etc/apparmor.d/$NAME\"" $p &&
	grep_q "LOCAL_APP_PROFILE=\"/etc/apparmor.d/local/$NAME\"" $p &&
	grep_q "if /usr/bin/aa-enabled --quiet 2>/dev/null; then" $p &&
	grep_q "/sbin/apparmor_parser -r -T -W \"\$APP_PROFILE\"\$" $p &&
	sh -n $p
'

test_expect_success 'a profile that does not load fails the postinst, not silently' '
	! grep -q "apparmor_parser.*|| *true" greet.x/DEBIAN/postinst
'

test_expect_success 'postrm unloads the profile on remove and purge' '
	p=greet.x/DEBIAN/postrm &&
	grep_q "^if \[ \"\$1\" = \"remove\" \] || \[ \"\$1\" = \"purge\" \]; then\$" $p &&
	grep_q "printf .%s. \"$NAME\" >\"\$AA_FS/.remove\"" $p
'

test_expect_success 'postrm cleans local/, disable/, force-complain/ and the cache on purge' '
	p=greet.x/DEBIAN/postrm &&
	grep_q "^if \[ \"\$1\" = \"purge\" \] && ! \[ -e \"/etc/apparmor.d/$NAME\" \]; then\$" $p &&
	grep_q "rm -f \"/etc/apparmor.d/local/$NAME\"" $p &&
	grep_q "rm -f \"/etc/apparmor.d/disable/$NAME\"" $p &&
	grep_q "rm -f \"/etc/apparmor.d/force-complain/$NAME\"" $p &&
	grep_q "rm -f /var/cache/apparmor/\*/\"$NAME\"" $p &&
	sh -n $p
'

test_expect_success 'the package depends on the AppArmor the scripts need' '
	dpkg-deb -f greet.deb Depends >greet.depends &&
	grep_q "apparmor (>= 3.0)" greet.depends
'

test_expect_success 'a declared app, root and privileges build into their profile' '
	fixture hush "app: hush\nroot: /opt/extras-test\nprivileges:\n  - x11\n  - network\n" &&
	printf "override_dh_extras_check:\n\tdh_extras_check --root /opt/extras-test\n" \
		>>"$TRASH/hush.src/debian/rules" &&
	build_fixture hush "$TRASH/hush.src" || { tail -30 hush.log; false; } &&
	mv extras-hush_*.deb hush.deb &&
	unpack hush.deb hush.x &&
	test -f hush.x$HUSH_NS/bin/greet &&
	extras-profile --executable $HUSH_NS/bin/.greet --executable $HUSH_NS/bin/greet \
		hush/debian/extras.yaml >hush.expected &&
	cmp hush.expected hush.x/etc/apparmor.d/$HUSH_NAME &&
	grep_q "^  # Privilege network (common).\$" hush.expected &&
	grep_q "^  # Privilege x11 (common).\$" hush.expected &&
	compiles hush.x/etc/apparmor.d/$HUSH_NAME &&
	grep_q "/etc/apparmor.d/$HUSH_NAME" hush.x/DEBIAN/postinst &&
	grep_q "/etc/apparmor.d/local/$HUSH_NAME" hush.x/DEBIAN/postrm
'

test_expect_success 'an unknown privilege fails the build naming the file and line' '
	fixture bad "privileges:\n  - x11\n  - teleport\n" &&
	! build_fixture bad "$TRASH/bad.src" &&
	grep -c "^dh_extras_apparmor: error: " bad.log >bad.count &&
	test "$(cat bad.count)" = 1 &&
	grep_q "^dh_extras_apparmor: error: debian/extras.yaml:3: unknown privilege .teleport.\$" bad.log &&
	! ls extras-bad_*.deb 2>/dev/null
'

# The built greet tree is still there: run the helper on it directly.
reset

test_expect_success '--no-act prints the commands and writes nothing' '
	(cd greet && dh_extras_apparmor --no-act) >noact.out &&
	grep_q "apparmor_parser -QK -M $FEATURES" noact.out &&
	grep_q "debian/extras-greet/etc/apparmor.d/$NAME" noact.out &&
	untouched
'

test_expect_success 'DH_NO_ACT writes nothing either' '
	(cd greet && DH_NO_ACT=1 dh_extras_apparmor) >/dev/null &&
	untouched
'

test_expect_success '-N excludes the package: nothing written' '
	(cd greet && dh_extras_apparmor -N extras-greet) &&
	untouched
'

test_expect_success '-p selects it: the profile and its Depends are written, no snippet' '
	(cd greet && dh_extras_apparmor -p extras-greet) &&
	cmp greet.expected greet/debian/extras-greet/etc/apparmor.d/$NAME &&
	test ! -e greet/debian/extras-greet.postinst.debhelper &&
	test ! -e greet/debian/extras-greet.postrm.debhelper &&
	grep_q "^misc:Depends=apparmor (>= 3.0)\$" greet/debian/extras-greet.substvars
'

test_expect_success 'dh_extras_scripts: the generated scripts replace what dh_installdeb made; -n leaves them' '
	mkdir -p greet/debian/extras-greet/DEBIAN &&
	printf "#!/bin/sh\nset -e\nPATH=/evil:\$PATH\n" >greet/debian/extras-greet/DEBIAN/postinst &&
	printf "#!/bin/sh\necho hi\n" >greet/debian/extras-greet/DEBIAN/preinst &&
	(cd greet && dh_extras_scripts -n) &&
	grep_q "^PATH=/evil" greet/debian/extras-greet/DEBIAN/postinst &&
	(cd greet && dh_extras_scripts) >out &&
	grep_q "^dh_extras_scripts: debian/extras-greet/DEBIAN/postinst: replaced by the one dh-extras generates (it held .PATH=/evil:\$PATH.)$" out &&
	grep_q "^dh_extras_scripts: debian/extras-greet/DEBIAN/preinst: replaced by the one dh-extras generates (it held .echo hi.)$" out &&
	echo "app: greet" >greet.yaml &&
	extras-profile --app greet --script postinst --package extras-greet greet.yaml >expect &&
	cmp expect greet/debian/extras-greet/DEBIAN/postinst &&
	test "$(stat -c %a greet/debian/extras-greet/DEBIAN/postinst)" = 755 &&
	test ! -e greet/debian/extras-greet/DEBIAN/preinst &&
	(cd greet && dh_extras_scripts) >out && test ! -s out
'

test_expect_success '-P installs it in another build directory' '
	reset && rm -rf greet/debian/other &&
	cp -a greet/debian/extras-greet greet/debian/other &&
	rm -rf greet/debian/extras-greet/opt &&
	(cd greet && dh_extras_apparmor -p extras-greet -Pdebian/other) >/dev/null &&
	cmp greet.expected greet/debian/other/etc/apparmor.d/$NAME &&
	rm -rf greet/debian/extras-greet/etc && mv greet/debian/other/opt greet/debian/extras-greet/ &&
	test ! -e greet/debian/extras-greet/etc &&
	rm -rf greet/debian/other &&
	reset && (cd greet && dh_extras_apparmor -p extras-greet) >/dev/null
'

test_expect_success 'the substvar is added once, beside what is there' '
	reset &&
	echo "misc:Depends=foo, apparmor (>= 3.0)" >>greet/debian/extras-greet.substvars &&
	(cd greet && dh_extras_apparmor -p extras-greet) >/dev/null &&
	grep -c "^misc:Depends=" greet/debian/extras-greet.substvars >count &&
	test "$(cat count)" = 1 &&
	grep_q "^misc:Depends=foo, apparmor (>= 3.0)\$" greet/debian/extras-greet.substvars
'

test_expect_success '-p with a package debian/control does not list fails' '
	reset &&
	(cd greet && expect_status 2 dh_extras_apparmor -p extras-nosuch) &&
	untouched
'

test_expect_success 'two packages, one namespace: one profile, in the one with the executable' '
	reset &&
	cp greet/debian/control control.orig &&
	{
		sed -n "1,/^\$/p" control.orig &&
		printf "Package: extras-greet-data\nArchitecture: all\nDescription: data\n data\n\n" &&
		sed -n "/^Package: extras-greet\$/,\$p" control.orig
	} >greet/debian/control &&
	mkdir -p greet/debian/extras-greet-data$NS/share/greet &&
	echo data >greet/debian/extras-greet-data$NS/share/greet/more.txt &&
	(cd greet && dh_extras_apparmor) &&
	cmp greet.expected greet/debian/extras-greet/etc/apparmor.d/$NAME &&
	test ! -e greet/debian/extras-greet-data/etc &&
	reset &&
	(cd greet && dh_extras_apparmor -p extras-greet-data) &&
	untouched &&
	test ! -e greet/debian/extras-greet-data/etc &&
	cp control.orig greet/debian/control
'

test_expect_success 'a profile that does not compile fails with the parser'"'"'s message' '
	reset &&
	rm -rf data && mkdir data && cp -R "$DH_EXTRAS_DATADIR/templates" data/ &&
	echo "  network no-such-family," >>data/templates/apparmor/privileges/network.apparmor &&
	printf "privileges:\n  - network\n" >greet/debian/extras.yaml &&
	(cd greet && export DH_EXTRAS_DATADIR=$TRASH/data &&
	 expect_status 2 dh_extras_apparmor 2>../broken.err) &&
	rm greet/debian/extras.yaml &&
	grep -c . broken.err >count && test "$(cat count)" = 1 &&
	grep_q "^dh_extras_apparmor: error: debian/.debhelper/extras/$NAME: does not compile: AppArmor parser error .* at line [0-9]*: Invalid network entry.\$" broken.err &&
	test ! -e greet/debian/extras-greet/etc
'

if [ "$(id -u)" = 0 ] && [ -z "${DH_EXTRAS_NO_INSTALL:-}" ] &&
   unshare -m true 2>/dev/null &&
   dpkg -s apparmor 2>/dev/null | grep -q "^Status: install ok installed"; then
	test_set_prereq ROOT_APPARMOR
fi
# Installed in a scratch view of this system (tests/lib.sh), with the
# real apparmor_parser: the profile is loaded in this kernel where
# AppArmor is on.
mkdir scratch
test_expect_success ROOT_APPARMOR 'installing runs postinst: local include, profile loaded where AppArmor is on' '
	in_scratch_system scratch sh -c "
		dpkg -i hush.deb >dpkg.log 2>&1 || { cat dpkg.log; exit 1; }
		test -f /etc/apparmor.d/$HUSH_NAME &&
		test -f /etc/apparmor.d/local/$HUSH_NAME &&
		if aa-enabled --quiet 2>/dev/null; then
			grep -q \"^$HUSH_NAME \" /sys/kernel/security/apparmor/profiles
		fi"
'
test_expect_success ROOT_APPARMOR 'purging runs postrm: profile, local include and cache gone' '
	in_scratch_system scratch sh -c "
		dpkg --purge extras-hush >dpkg.log 2>&1 || { cat dpkg.log; exit 1; }
		test ! -e /etc/apparmor.d/$HUSH_NAME &&
		test ! -e /etc/apparmor.d/local/$HUSH_NAME &&
		! ls /var/cache/apparmor/*/$HUSH_NAME 2>/dev/null &&
		test ! -e $HUSH_NS &&
		! grep -q \"^$HUSH_NAME \" /sys/kernel/security/apparmor/profiles 2>/dev/null"
'

# Never leave the profile loaded, whatever failed above.
if grep -q "^$HUSH_NAME " /sys/kernel/security/apparmor/profiles 2>/dev/null; then
	printf %s "$HUSH_NAME" >/sys/kernel/security/apparmor/.remove
fi

test_done
