#!/bin/sh
# extras-convert on an unpacked source tree: what it changes, what it
# keeps, what it drops, and that a second run changes nothing.
. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"

test_expect_success 'converts a tree in place' '
	make_fixture orig &&
	cp -a orig greet &&
	extras-convert --privileges x11,network greet >out &&
	grep_q "extras-greet 1.0 converted" out
'

test_expect_success 'control: the diff is only what must change' '
	expect_status 1 diff -u orig/debian/control greet/debian/control >control.diff &&
	cat >expect <<-\EOF &&
	@@ -1,10 +1,11 @@
	-Source: greet
	+Source: extras-greet
	 Section: misc
	 Priority: optional
	 Maintainer: Greet Author <author@example.org>
	 # The build needs nothing beyond debhelper.
	 Build-Depends:
	  debhelper-compat (= 13),
	+ dh-sequence-extras,
	 Standards-Version: 4.6.2
	 Rules-Requires-Root: no
	 
	@@ -15,7 +16,6 @@
	  ${misc:Depends},
	  ${shlibs:Depends},
	 Suggests: greet-doc | fortune-mod
	-Conflicts: greet-classic
	 Description: greets the user
	  A small program that prints a greeting.
	 
	@@ -23,6 +23,6 @@
	 Architecture: all
	 Depends: ${misc:Depends}
	 Breaks: greet (<< 1.0~)
	-Replaces: greet (<< 1.0~), greet-legacy
	+Replaces: greet (<< 1.0~)
	 Description: greeting for greet
	  The text greet prints.
	EOF
	tail -n +3 control.diff >actual &&
	diff -u expect actual
'

test_expect_success 'report: every dropped relation has a line' '
	grep_q "^debian/control:18: dropped Conflicts: greet-classic" out &&
	grep_q "^debian/control:26: dropped Replaces: greet-legacy" out
'

test_expect_success 'changelog: the first line names the new source' '
	head -1 greet/debian/changelog >actual &&
	echo "extras-greet (1.0) unstable; urgency=medium" >expect &&
	diff -u expect actual &&
	tail -n +2 orig/debian/changelog >expect &&
	tail -n +2 greet/debian/changelog >actual &&
	diff -u expect actual
'

test_expect_success 'per-package debhelper files keep their names: the build runs under the maintainer.s' '
	cmp orig/debian/greet.install greet/debian/greet.install &&
	cmp orig/debian/greet-data.install greet/debian/greet-data.install &&
	cmp orig/debian/greet.docs greet/debian/greet.docs &&
	test -f greet/debian/greet-data.links &&
	test ! -e greet/debian/extras-greet.install
'

test_expect_success 'system integration is dropped with a line each' '
	test ! -e greet/debian/greet.cron.d &&
	test ! -e greet/debian/greet.postinst &&
	grep_q "^debian/greet.cron.d: dropped" out &&
	grep_q "^debian/greet.postinst:6: dropped system integration .update-alternatives" out &&
	echo usr/share/greet >expect &&
	diff -u expect greet/debian/greet-data.dirs &&
	grep_q "^debian/greet-data.dirs:2: dropped .var/lib/greet.: it creates a system directory for data a program changes, which the confined app cannot write: keep it in the user.s home (\$XDG_DATA_HOME, \$XDG_STATE_HOME)$" out
'

test_expect_success 'debian/rules keeps the maintainer.s package names' '
	cmp orig/debian/rules greet/debian/rules &&
	test -x greet/debian/rules
'

test_expect_success 'debian/extras.yaml declares the app and its privileges' '
	printf "app: greet\nprivileges:\n  - x11\n  - network\n" >expect &&
	grep -v "^#" greet/debian/extras.yaml >actual &&
	diff -u expect actual
'

test_expect_success 'a second run changes nothing' '
	cp -a greet again &&
	extras-convert again >out2 &&
	diff -r greet again &&
	test "$(wc -l <out2)" -eq 1 &&
	grep_q "^extras-convert: extras-greet 1.0 is already an extras package: nothing changed$" out2
'

test_expect_success 'a second run with other privileges rewrites only the declaration' '
	extras-convert --privileges x11 --root /usr/lib/extras again >out3 &&
	printf "app: greet\nroot: /usr/lib/extras\nprivileges:\n  - x11\n" >expect &&
	grep -v "^#" again/debian/extras.yaml >actual &&
	diff -u expect actual &&
	test "$(diff -r greet again | grep -c "^diff")" -eq 1
'

test_expect_success 'bus names and component ids the app holds are declared' '
	cp -a again names &&
	extras-convert --privileges x11 --bus-names org.hexchat.service,org.example.Greet \
		--ids io.github.quodlibet.ExFalso names >out4 &&
	printf "app: greet\nprivileges:\n  - x11\nbus-names:\n  - org.hexchat.service\n  - org.example.Greet\nids:\n  - io.github.quodlibet.ExFalso\n" >expect &&
	grep -v "^#" names/debian/extras.yaml >actual &&
	diff -u expect actual &&
	cp -a names names.before &&
	expect_status 2 extras-convert --bus-names org.hexchat.service,hexchat names 2>err &&
	grep_q "^extras-convert: error: --bus-names: .hexchat. must have at least two elements (org.example.App)$" err &&
	expect_status 2 extras-convert --ids "a b" names 2>err &&
	grep_q "^extras-convert: error: --ids: .a b. may hold only" err &&
	expect_status 2 extras-convert --bus-names "org.a,,org.b" names 2>err &&
	grep_q "^extras-convert: error: --bus-names: bad list .org.a,,org.b.$" err &&
	diff -r names.before names
'

test_expect_success 'dpkg-source builds and unpacks the result' '
	dpkg-source -b greet >build.log 2>&1 &&
	test -f extras-greet_1.0.dsc &&
	dpkg-source -x extras-greet_1.0.dsc unpacked >x.log 2>&1 &&
	diff -r greet unpacked
'

# In directories of their own: the upstream tarball is beside the tree.
test_expect_success 'the upstream tarball gets a hard link under the new name, so dpkg-source builds' '
	mkdir quilt && cd quilt &&
	make_fixture greet-1.0 "3.0 (quilt)" &&
	tar --exclude=greet-1.0/debian -czf greet_1.0.orig.tar.gz greet-1.0 &&
	echo older >greet_0.9.orig.tar.gz &&
	extras-convert greet-1.0 >out &&
	test extras-greet_1.0.orig.tar.gz -ef greet_1.0.orig.tar.gz &&
	grep_q "^\.\./extras-greet_1\.0\.orig\.tar\.gz: a hard link of \.\./greet_1\.0\.orig\.tar\.gz: " out &&
	! test -e extras-greet_0.9.orig.tar.gz &&
	dpkg-source -b greet-1.0 >build.log 2>&1 &&
	test -f extras-greet_1.0-1.dsc &&
	extras-convert greet-1.0 >out2 &&
	test "$(wc -l <out2)" -eq 1
'

# An upstream tarball linked from another file system (a download
# directory on tmpfs) cannot be hard-linked: it is copied.
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
   [ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$TRASH")" ]; then
	test_set_prereq OTHER_FS
fi
test_expect_success OTHER_FS 'an upstream tarball on another file system is copied under the new name' '
	mkdir elsewhere && cd elsewhere &&
	shm=$(mktemp -d /dev/shm/dh-extras-test.XXXXXX) &&
	trap "rm -rf \"$shm\"" EXIT &&
	make_fixture greet-1.0 "3.0 (quilt)" &&
	tar --exclude=greet-1.0/debian -czf "$shm/download.tar.gz" greet-1.0 &&
	ln -s "$shm/download.tar.gz" greet_1.0.orig.tar.gz &&
	extras-convert greet-1.0 >out &&
	grep_q "^\.\./extras-greet_1\.0\.orig\.tar\.gz: a copy of \.\./greet_1\.0\.orig\.tar\.gz: " out &&
	test -f extras-greet_1.0.orig.tar.gz && ! test -L extras-greet_1.0.orig.tar.gz &&
	cmp "$shm/download.tar.gz" extras-greet_1.0.orig.tar.gz &&
	! ls -a | grep -q "^\.extras-convert" &&
	extras-convert greet-1.0 >out2 &&
	test "$(wc -l <out2)" -eq 1
'

test_expect_success 'a different file already under the new name is left as it is, with a note' '
	mkdir differ && cd differ &&
	make_fixture greet-1.0 "3.0 (quilt)" &&
	tar --exclude=greet-1.0/debian -czf greet_1.0.orig.tar.gz greet-1.0 &&
	echo other >extras-greet_1.0.orig.tar.gz &&
	extras-convert greet-1.0 >out &&
	grep_q "^\.\./extras-greet_1\.0\.orig\.tar\.gz: differs from \.\./greet_1\.0\.orig\.tar\.gz: left as it is" out &&
	test "$(cat extras-greet_1.0.orig.tar.gz)" = other
'

test_expect_success '--json writes the report' '
	cp -a orig j &&
	extras-convert -q --json report.json j &&
	python3 -c "import json,sys; r=json.load(open(\"report.json\")); \
		assert r[\"source\"] == \"extras-greet\"; \
		assert any(\"greet-classic\" in n[\"message\"] for n in r[\"notes\"]); \
		assert any(c[\"op\"] == \"remove\" for c in r[\"changes\"])"
'

test_expect_success '--help prints the usage' '
	extras-convert --help >help &&
	grep_q "^    extras-convert \[--privileges LIST\]" help &&
	grep_q " -o OUTDIR FILE.dsc$" help &&
	grep_q "^    --identity FILE$" help
'

test_expect_success 'bad usage exits 2' '
	expect_status 2 extras-convert 2>err &&
	expect_status 2 extras-convert -o out orig 2>err
'

# refused TREE FILE:LINE: each refused tree is left exactly as it was.
refused () {
	cp -a "$1" "$1.before" &&
	expect_status 2 extras-convert "$1" 2>err &&
	grep_q "^extras-convert: error: $2" err &&
	test "$(wc -l <err)" -eq 1 &&
	diff -r "$1.before" "$1"
}

test_expect_success 'a command with no extras meaning: dropped with the script, a warning names it' '
	make_fixture script &&
	sed -i "s|^	update-alternatives.*|	rm -rf /var/cache/foo|" script/debian/greet.postinst &&
	extras-convert script >out &&
	grep_q "^debian/greet.postinst:6: warning: .rm -rf /var/cache/foo. does not run at install, nor anything else of the script: if the app needs what it did, do it in the app when it starts$" out &&
	grep_q "^debian/greet.postinst: dropped: an extras package runs no maintainer script but the ones dh-extras generates$" out &&
	test ! -e script/debian/greet.postinst && test ! -e script/debian/greet.postinst
'

test_expect_success 'a hostile command substitution is dropped, never kept' '
	make_fixture hostile &&
	sed -i "s|^	update-alternatives.*|	echo \$(rm -rf /)|" hostile/debian/greet.postinst &&
	extras-convert hostile >out &&
	grep_q "^debian/greet.postinst:6: warning: .echo \$(rm -rf /). does not run at install" out &&
	! ls hostile/debian/*postinst* 2>/dev/null
'

# ordinary_postinst FILE: what real packages carry: tests joined by ||,
# a command continued with \, variables, umask, a function, case on $1.
ordinary_postinst () {
	cat >"$1" <<-\EOF
	#!/bin/sh
	set -e
	PKG=greet
	umask 0022
	note () {
	    echo "$PKG: $1" >&2
	}
	if [ "$1" = configure ] || [ "$1" = abort-upgrade ]; then
	    update-alternatives --install /usr/bin/hi hi \
	        /usr/bin/greet 10 \
	        --slave /usr/share/man/man1/hi.1.gz hi.1.gz \
	        /usr/share/man/man1/greet.1.gz
	    note "greetings installed"
	fi
	case "$1" in
	    configure)
	        ldconfig
	    ;;
	    *)
	        echo "postinst called with unknown argument" >&2
	        exit 1
	    ;;
	esac

	#DEBHELPER#

	exit 0
	EOF
}

test_expect_success 'ordinary shell is understood, system integration dropped with a report' '
	make_fixture ordinary &&
	ordinary_postinst ordinary/debian/greet.postinst &&
	extras-convert ordinary >out &&
	grep_q "^debian/greet.postinst:9: dropped system integration .update-alternatives --install /usr/bin/hi hi /usr/bin/greet 10 --slave .*: /usr/bin/hi is not an alternative: .usr/bin/greet usr/bin/hi. added to debian/greet.links: the app.s own programs and .desktop files still find it by that name$" out &&
	grep_q "^debian/greet.postinst:9: dropped .*: /usr/share/man/man1/hi.1.gz is not an alternative: .usr/share/man/man1/greet.1.gz usr/share/man/man1/hi.1.gz. added to debian/greet.links" out &&
	grep_q "^debian/greet.links: created: the links of the alternatives" out &&
	printf "%s\n" "usr/bin/greet usr/bin/hi" \
		"usr/share/man/man1/greet.1.gz usr/share/man/man1/hi.1.gz" >expect &&
	cmp expect ordinary/debian/greet.links &&
	grep_q "^debian/greet.postinst:17: dropped system integration .ldconfig.: nothing: " out &&
	grep_q "^debian/greet.postinst: dropped: an extras package runs no maintainer script" out &&
	! grep -q "warning" out &&
	test ! -e ordinary/debian/greet.postinst
'

# rxvt-unicode's preinst: integration guarded by a query of the
# alternatives system, dropped whole; a pipe anywhere else is refused.
test_expect_success 'an alternatives query guarding integration goes with it' '
	make_fixture query &&
	cat >query/debian/greet.preinst <<-\EOF &&
	#!/bin/sh
	set -e
	case $1 in
	    upgrade)
	        if ! update-alternatives --query hi 2>/dev/null | grep -q \
	                "^Value: /usr/bin/greetd$"; then
	            update-alternatives --remove hi /usr/bin/greetd
	        fi
	    ;;
	esac
	#DEBHELPER#
	EOF
	extras-convert query >out &&
	grep_q "^debian/greet.preinst:7: dropped system integration .update-alternatives --remove hi /usr/bin/greetd." out &&
	grep_q "^debian/greet.preinst: dropped: an extras package runs no maintainer script" out &&
	test ! -e query/debian/greet.preinst &&
	make_fixture querymore &&
	printf "#!/bin/sh\nset -e\nif update-alternatives --query hi | grep -q x; then\n    echo kept\nfi\n#DEBHELPER#\n" \
		>querymore/debian/greet.preinst &&
	extras-convert querymore >out &&
	grep_q "^debian/greet.preinst:3: warning: .*does not run at install" out &&
	test ! -e querymore/debian/greet.preinst
'

# zsh: "/bin/zsh /bin/rzsh" in debian/zsh.links; merged-/usr makes /bin
# an alias of /usr/bin, which relocation moves into the namespace.
test_expect_success 'a link in /bin is judged as one in /usr/bin; one in /var is refused' '
	make_fixture binlink &&
	echo "/bin/greet /bin/rgreet" >binlink/debian/greet.links &&
	extras-convert binlink >out &&
	grep_q "^/bin/greet /bin/rgreet$" binlink/debian/greet.links &&
	make_fixture varlink &&
	echo "/var/lib/greet/a /var/lib/greet/b" >varlink/debian/greet.links &&
	refused varlink "debian/greet.links:1: link ./var/lib/greet/a. is outside /usr, /etc, /opt and merged-/usr.s /bin, /sbin and /lib\\*, which the namespace takes over"
'

test_expect_success 'alternatives join an existing .links file; the old doc directory is renamed; a top directory is kept' '
	make_fixture alt &&
	ordinary_postinst alt/debian/greet-data.postinst &&
	sed -i "s/\\bhi\\b/hey/g" alt/debian/greet-data.postinst &&
	printf "usr/share/doc/greet-data/a usr/share/doc/greet-data/b\n" \
		>alt/debian/greet-data.links &&
	printf "usr/share/doc/greet-data\n" >>alt/debian/greet-data.dirs &&
	printf "etc\n/usr\netcetera\n" >>alt/debian/greet-data.dirs &&
	extras-convert alt >out &&
	printf "%s\n" "usr/share/doc/extras-greet-data/a usr/share/doc/extras-greet-data/b" \
		"usr/bin/greet usr/bin/hey" \
		"usr/share/man/man1/greet.1.gz usr/share/man/man1/hey.1.gz" >expect &&
	cmp expect alt/debian/greet-data.links &&
	grep_q "^debian/greet-data.links:1: usr/share/doc/greet-data written as usr/share/doc/extras-greet-data" out &&
	grep_q "^usr/share/doc/extras-greet-data$" alt/debian/greet-data.dirs &&
	grep_q "^etc$" alt/debian/greet-data.dirs &&
	grep_q "^/usr$" alt/debian/greet-data.dirs &&
	grep_q "^debian/greet-data.dirs:6: dropped .etcetera.: it creates a system directory$" out &&
	echo "usr/bin/greet usr/bin/hi" >expect &&
	cmp expect alt/debian/greet.links
'

# nano and nano-tiny: two packages of the source register one alternative;
# dpkg would not install both if both shipped its link.
test_expect_success 'an alternative two packages register is linked in the one update-alternatives would pick' '
	make_fixture altboth &&
	ordinary_postinst altboth/debian/greet-data.postinst &&
	sed -i "s/greet 10/greet 20/" altboth/debian/greet-data.postinst &&
	extras-convert altboth >out &&
	grep_q "^debian/control: usr/bin/hi: not linked in greet: greet-data links it too (the alternative update-alternatives would pick), and dpkg will not install two packages that ship one path$" out &&
	printf "%s\n" "usr/bin/greet usr/bin/hi" \
		"usr/share/man/man1/greet.1.gz usr/share/man/man1/hi.1.gz" >expect &&
	grep -v greeting.txt altboth/debian/greet-data.links >actual &&
	cmp expect actual &&
	test ! -e altboth/debian/greet.links &&
	make_fixture alttie &&
	ordinary_postinst alttie/debian/greet-data.postinst &&
	extras-convert alttie >out &&
	grep_q "^debian/control: usr/bin/hi: not linked in greet-data: greet links it too" out &&
	echo "usr/share/man/man1/greet.1.gz usr/share/man/man1/hi.1.gz" >expect &&
	grep -v greeting.txt alttie/debian/greet-data.links >actual &&
	cmp expect actual &&
	echo "usr/bin/greet usr/bin/hi" >expect &&
	cmp expect alttie/debian/greet.links
'

# mupdf: debian/mupdf.install names debian/mupdf.desktop; other rules
# write debian/NAME.desktop at build time: the file keeps its name.
test_expect_success 'a file list naming another debhelper file still finds it' '
	make_fixture desk &&
	printf "[Desktop Entry]\nName=Greet\nExec=greet\n" >desk/debian/greet.desktop &&
	echo "debian/greet.desktop usr/share/applications" >>desk/debian/greet.install &&
	extras-convert desk >out &&
	test -f desk/debian/greet.desktop &&
	grep_q "^debian/greet.desktop usr/share/applications$" desk/debian/greet.install &&
	! grep -q "^debian/greet.install" out
'

test_expect_success 'a link into another package.s doc directory keeps that name, for the relocation' '
	make_fixture doclink &&
	printf "usr/share/doc/greet-data/html usr/share/doc/greet/html\n" \
		>doclink/debian/greet-data.links &&
	extras-convert doclink >out &&
	echo "usr/share/doc/extras-greet-data/html usr/share/doc/greet/html" >expect &&
	cmp expect doclink/debian/greet-data.links &&
	! grep -q "^debian/greet-data.links.*usr/share/doc/greet written" out
'

# The issue's shell app: an alternative registered in "if ... || ...", a
# .desktop file naming the alternative's command.  Built, the link is in the
# namespace's bin and the exported entry runs it.
test_expect_success 'the alternative built: Exec=hi runs the link in the namespace' '
	make_fixture altbuild &&
	ordinary_postinst altbuild/debian/greet.postinst &&
	mkdir -p altbuild/data &&
	printf "[Desktop Entry]\nType=Application\nName=Hi\nExec=hi\nTerminal=true\n" \
		>altbuild/data/hi.desktop &&
	echo "data/hi.desktop usr/share/applications" >>altbuild/debian/greet.install &&
	extras-convert altbuild >out &&
	(cd altbuild && dpkg-buildpackage -us -uc -b -d) >altbuild.log 2>&1 ||
		{ tail -n 30 altbuild.log; false; } &&
	deb=$(ls extras-greet_1.0_*.deb) &&
	dpkg-deb -c $deb >contents &&
	grep_q " ./opt/extras.ubuntu.com/greet/bin/hi -> greet$" contents &&
	in_namespace $deb extras-greet-data_1.0_all.deb -- sh -c "
		exec \$(sed -n s/^Exec=//p ns/usr/share/applications/extras-hi.desktop)" >run.out &&
	grep_q "^Exec=/opt/extras.ubuntu.com/greet/bin/hi$" ns/usr/share/applications/extras-hi.desktop &&
	echo "Hello from greet." >expect && cmp expect run.out
'

test_expect_success 'an alternative named through a variable gets no link' '
	make_fixture altvar &&
	printf "#!/bin/sh\nset -e\nB=/usr/bin/greet\nupdate-alternatives --install /usr/bin/hi hi \"\$B\" 10\n#DEBHELPER#\n" \
		>altvar/debian/greet.postinst &&
	grep_q "B\"" altvar/debian/greet.postinst &&
	extras-convert altvar >out &&
	grep_q "dropped system integration .update-alternatives" out &&
	test ! -e altvar/debian/greet.links
'

test_expect_success 'a script in another language is dropped, with a warning' '
	make_fixture perl &&
	printf "#!/usr/bin/perl\nprint 1;\n" >perl/debian/greet-data.prerm &&
	extras-convert perl >out &&
	grep_q "^debian/greet-data.prerm:1: warning: not read (is not a shell script .*): nothing of it runs" out &&
	test ! -e perl/debian/greet-data.prerm
'

# What real packages carry: debconf (a question, its config script and a
# postinst reading the answer), a system user, a loop over old paths, the
# Debian package.s own file removed from /etc.  None of it runs; each
# gets its report line, and the package converts.
test_expect_success 'debconf, a system user, a loop, a migration: translated or dropped, with reports' '
	make_fixture real &&
	cat >real/debian/greet.templates <<-\EOF &&
	Template: greet/colour
	Type: boolean
	Default: true
	Description: Greet in colour?

	Template: greet/name
	Type: string
	Description: Whose name?
	EOF
	printf "#!/bin/sh\nset -e\n. /usr/share/debconf/confmodule\ndb_input low greet/colour || true\ndb_go\n" \
		>real/debian/greet.config &&
	cat >real/debian/greet.postinst <<-\EOF &&
	#!/bin/sh
	set -e
	. /usr/share/debconf/confmodule
	db_get greet/colour
	if [ "$RET" = true ]; then
	    echo colour=yes >/etc/greet.conf
	fi
	if ! getent passwd greetd >/dev/null; then
	    adduser --system --group --home /var/lib/greetd greetd
	fi
	for old in /etc/greet.old /etc/greet.older; do
	    rm -f "$old"
	done
	rm -f /etc/greet/legacy.conf
	#DEBHELPER#
	EOF
	extras-convert real >out &&
	grep_q "^debian/greet.templates:1: debconf question .greet/colour. is not asked: the app runs with the files the package ships (its default was .true.)$" out &&
	grep_q "^debian/greet.templates:6: debconf question .greet/name. is not asked: the app runs with the files the package ships$" out &&
	grep_q "^debian/greet.config: dropped: no debconf question is asked" out &&
	grep_q "^debian/greet.postinst:[0-9]*: dropped system integration .adduser --system" out &&
	grep_q "^debian/greet.postinst: dropped: an extras package runs no maintainer script" out &&
	! ls real/debian/*greet.postinst real/debian/*greet.config real/debian/*greet.templates 2>/dev/null
'

test_expect_success 'a link outside the namespace is refused' '
	make_fixture links &&
	echo "usr/bin/greet srv/greet" >links/debian/greet.links &&
	refused links "debian/greet.links:1: link .srv/greet. is outside"
'

test_expect_success 'a malformed control file is refused with its line' '
	make_fixture control &&
	sed -i "s/^Architecture: all/Architecture all/" control/debian/control &&
	refused control "debian/control:23: field name .Architecture. must be followed by colon"
'

test_expect_success 'an invalid package name is refused' '
	make_fixture badname &&
	sed -i "s/^Package: greet-data/Package: greet_data/" badname/debian/control &&
	refused badname "debian/control:22: invalid package name .greet_data."
'

test_expect_success 'an invalid relation is refused' '
	make_fixture badrel &&
	sed -i "s/^Suggests: .*/Suggests: greet-doc (>> )/" badrel/debian/control &&
	refused badrel "debian/control:17: bad version in Suggests"
'

test_expect_success 'a changelog naming another source is refused' '
	make_fixture otherlog &&
	sed -i "1s/^greet/other/" otherlog/debian/changelog &&
	refused otherlog "debian/changelog:1: source .other. is not debian/control.s .greet."
'

test_expect_success 'a changelog without trailer is refused' '
	make_fixture notrailer &&
	sed -i "/^ -- /d" notrailer/debian/changelog &&
	refused notrailer "debian/changelog: first entry has no trailer line"
'

test_expect_success 'a changelog with a bad version is refused' '
	make_fixture badversion &&
	sed -i "1s/(1.0)/(a:1.0)/" badversion/debian/changelog &&
	refused badversion "debian/changelog:1: invalid version .a:1.0."
'

test_expect_success 'a symlinked debian/control is refused' '
	make_fixture symlink &&
	mv symlink/debian/control control.real &&
	ln -s "$TRASH/control.real" symlink/debian/control &&
	refused symlink "debian/control: is a symbolic link"
'

test_expect_success 'a bad privilege is refused' '
	make_fixture badpriv &&
	cp -a badpriv badpriv.before &&
	expect_status 2 extras-convert --privileges "x11,../etc" badpriv 2>err &&
	grep_q "privilege .\\.\\./etc. may hold only" err &&
	diff -r badpriv.before badpriv
'

test_expect_success 'a privilege the catalogue does not have is refused at conversion, with the nearest name' '
	expect_status 2 extras-convert --privileges x11,netwrok badpriv 2>err &&
	grep_q "^extras-convert: error: --privileges: unknown privilege .netwrok.: did you mean .network.? (extras-profile --list-privileges lists them)$" err &&
	test "$(wc -l <err)" -eq 1 &&
	expect_status 2 extras-convert --privileges teleport badpriv 2>err &&
	grep_q "^extras-convert: error: --privileges: unknown privilege .teleport. (extras-profile --list-privileges lists them)$" err &&
	diff -r badpriv.before badpriv
'

test_expect_success 'a reserved privilege is accepted at conversion: the store decides at review' '
	cp -a badpriv reserved &&
	extras-convert -q --privileges x11,dbus-session-all reserved &&
	grep_q "^  - dbus-session-all$" reserved/debian/extras.yaml
'

test_done
