#!/bin/sh
# Maintainer scripts: an extras package runs none but the ones dh-extras
# generates.  A source whose author scripts attack the install (a PATH
# and an LD_PRELOAD set above #DEBHELPER#, a function shadowing
# apparmor_parser, PS4 evaluated under set -x, a py3compile with extra
# options) is converted and built through the real add-on, and dpkg
# installs the result for real in a private mount namespace (/usr, /etc
# and /var overlays, /opt a tmpfs, AppArmor's two programs replaced by
# recording stubs): nothing of the uploader's runs as root, and the
# profile is loaded.  The same package built with the author's scripts
# kept (dh_extras_scripts -n, the build gate skipped) is refused by the
# gate, and installed shows what would have happened.

. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"

NAME=opt.extras.ubuntu.com.greet

# hostile_postinst FILE: every attack of the class, one script.
hostile_postinst () {
	cat >"$1" <<-\EOF
	#!/bin/sh
	set -e
	PATH=/opt/extras.ubuntu.com/greet/bin:$PATH
	export LD_PRELOAD=/opt/extras.ubuntu.com/greet/lib/evil.so
	apparmor_parser () { touch /var/tmp/pwned-function; }
	PS4='$(touch /var/tmp/pwned-ps4)'
	set -x
	if command -v py3compile >/dev/null 2>&1; then
	    py3compile -p greet -f /opt/extras.ubuntu.com/greet/lib || true
	fi
	#DEBHELPER#
	exit 0
	EOF
}

# install_for_real DEB... -- COMMAND: dpkg -i the packages into this
# system seen through a private mount namespace, then run COMMAND there;
# apparmor_parser and aa-enabled are stubs that log to /var/tmp/aa.log.
install_for_real () {
	printf '#!/bin/sh\necho "apparmor_parser $*" >>/var/tmp/aa.log\n' >stub-parser &&
	printf '#!/bin/sh\nexit 0\n' >stub-enabled &&
	chmod 755 stub-parser stub-enabled &&
	debs= && while [ "$1" != -- ]; do debs="$debs $PWD/$1" && shift || return 1; done && shift &&
	rm -rf scratch && mkdir scratch &&
	in_scratch_system scratch sh -c '
		debs=$1; shift
		mount --bind "$PWD/stub-parser" /sbin/apparmor_parser &&
		mount --bind "$PWD/stub-enabled" /usr/bin/aa-enabled &&
		rm -f /var/tmp/aa.log /var/tmp/pwned-* &&
		dpkg --force-depends -i $debs >dpkg.log 2>&1 &&
		exec "$@"' sh "$debs" "$@"
}

if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null &&
   [ -x /sbin/apparmor_parser ] && [ -x /usr/bin/aa-enabled ]; then
	test_set_prereq ROOT_NS
fi

test_expect_success 'converted: every author script dropped, with its report' '
	make_fixture greet &&
	hostile_postinst greet/debian/greet.postinst &&
	printf "#!/bin/sh\nset -e\necho preinst >/var/tmp/pwned-preinst\n" >greet/debian/greet-data.preinst &&
	extras-convert greet >convert.out &&
	grep_q "^debian/greet.postinst: dropped: an extras package runs no maintainer script but the ones dh-extras generates$" convert.out &&
	grep_q "^debian/greet-data.preinst:3: warning: .echo preinst >/var/tmp/pwned-preinst. does not run at install" convert.out &&
	! ls greet/debian/*.postinst greet/debian/*.preinst 2>/dev/null
'

test_expect_success 'scripts put back after conversion are replaced at build time' '
	hostile_postinst greet/debian/greet.postinst &&
	printf "#!/bin/sh\necho >/var/tmp/pwned-prerm\n" >greet/debian/greet-data.prerm &&
	printf "%s\n" "" "override_dh_installdeb:" "	dh_installdeb" \
		"	sed -i \"2a touch /var/tmp/pwned-override\" debian/greet/DEBIAN/postinst" \
		>>greet/debian/rules &&
	(cd greet && dpkg-buildpackage -us -uc -b -d) >build.log 2>&1 ||
		{ tail -n 30 build.log; false; } &&
	grep_q "^dh_extras_scripts: debian/greet/DEBIAN/postinst: replaced by the one dh-extras generates (it held .touch /var/tmp/pwned-override.)$" build.log &&
	grep_q "^dh_extras_scripts: debian/greet-data/DEBIAN/prerm: replaced" build.log &&
	dpkg-deb -e extras-greet_1.0_*.deb ctl &&
	echo "app: greet" >greet.yaml &&
	extras-profile --app greet --script postinst --package extras-greet greet.yaml >expect &&
	cmp expect ctl/postinst &&
	dpkg-deb -e extras-greet-data_1.0_all.deb ctl-data &&
	test ! -e ctl-data/prerm && test ! -e ctl-data/postinst &&
	extras-review extras-greet_1.0_*.changes >review.out &&
	grep_q "extras-greet 1.0 accepted" review.out
'

test_expect_success ROOT_NS 'installed for real: the profile loaded, nothing of the uploader.s run' '
	install_for_real extras-greet_1.0_*.deb extras-greet-data_1.0_all.deb -- sh -c "
		cat /var/tmp/aa.log &&
		test -f /etc/apparmor.d/local/$NAME && echo local-include &&
		ls /var/tmp/pwned-* 2>/dev/null
		dpkg --purge extras-greet extras-greet-data >>dpkg.log 2>&1 &&
		test ! -e /etc/apparmor.d/$NAME && echo purged" >out &&
	printf "%s\n" "apparmor_parser -r -T -W /etc/apparmor.d/$NAME" local-include purged >expect &&
	cmp expect out
'

test_expect_success 'the author.s scripts kept: both gates refuse the package' '
	rm -f extras-greet*.deb extras-greet*.changes &&
	printf "\noverride_dh_extras_scripts:\n\tdh_extras_scripts -n\n" >>greet/debian/rules &&
	(cd greet && expect_status 2 dpkg-buildpackage -us -uc -b -d) >kept.log 2>&1 &&
	grep_q "^dh_extras_check: error: debian/greet: script: DEBIAN/postinst: differs from the one dh-extras generates from line 2" kept.log &&
	grep_q "^dh_extras_check: error: debian/greet-data: script: DEBIAN/prerm: an extras package runs no maintainer script" kept.log &&
	printf "override_dh_extras_check:\n\t:\n" >>greet/debian/rules &&
	(cd greet && dpkg-buildpackage -us -uc -b -d) >kept.log 2>&1 ||
		{ tail -n 30 kept.log; false; } &&
	expect_status 1 extras-review extras-greet_1.0_*.changes >review.out &&
	grep_q "script: DEBIAN/postinst: differs from the one dh-extras generates" review.out
'

test_expect_success ROOT_NS 'installed, the refused package would have run the uploader.s code as root, unconfined' '
	install_for_real extras-greet_1.0_*.deb extras-greet-data_1.0_all.deb -- sh -c "
		ls /var/tmp/pwned-* 2>/dev/null; cat /var/tmp/aa.log 2>/dev/null; true" >out &&
	grep_q "^/var/tmp/pwned-override$" out &&
	! grep -q apparmor_parser out
'

test_done
