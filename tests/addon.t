#!/bin/sh
# The debhelper add-on: real source packages built with dpkg-buildpackage
# land in their namespace, export what the desktop needs, and their
# programs still find their data, translations and private files.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com

test_expect_success 'autotools: the fixture builds with the add-on' '
	build_fixture greet || { tail -n 30 greet.log; false; } &&
	grep_q "dh-extras: autoconf: building for /$ROOT/greet" greet.log &&
	grep_q "configure .* --disable-silent-rules --prefix=/$ROOT/greet " greet.log &&
	grep_q "^   dh_extras_unprefix" greet.log &&
	grep_q "^   dh_extras_relocate" greet.log
'

test_expect_success 'autotools: compiled for the namespace, installed as usual' '
	grep_q "DLOCALEDIR=.*/$ROOT/greet/share/locale" greet.log &&
	grep_q "dh_extras_unprefix: moved .* back to debian/extras-greet/usr" greet.log
'

test_expect_success 'autotools: every file is in the namespace or an export' '
	deb=extras-greet_1.0_*.deb &&
	test -z "$(outside_namespace $deb /$ROOT/greet)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/greet/bin/greet$" files &&
	grep_q "^$ROOT/greet/share/greet/greeting.txt$" files &&
	grep_q "^$ROOT/greet/share/locale/fr/LC_MESSAGES/greet.mo$" files &&
	grep_q "^usr/share/applications/extras-greet.desktop$" files &&
	grep_q "^usr/share/icons/hicolor/scalable/apps/extras-greet.svg$" files
'

test_expect_success 'autotools: the exported .desktop file points into the namespace' '
	in_namespace extras-greet_1.0_*.deb -- true &&
	d=ns/usr/share/applications/extras-greet.desktop &&
	grep_q "^Exec=/$ROOT/greet/bin/greet %U$" $d &&
	grep_q "^Exec=/$ROOT/greet/bin/greet --quiet$" $d &&
	grep_q "^Icon=extras-greet$" $d
'

test_expect_success 'autotools: with LANGUAGE=fr it greets in French and reads its data' '
	in_namespace extras-greet_1.0_*.deb -- \
		env LANG=C.UTF-8 LANGUAGE=fr /$ROOT/greet/bin/greet >out &&
	printf "Bonjour de greet !\nThe data file was found.\n" >expect &&
	cmp expect out
'

test_expect_success 'autotools: every helper run again on the finished tree changes nothing' '
	snapshot () {
		(cd greet/debian && find extras-greet -printf "%p %m %l\n" | sort &&
		 find extras-greet -type f -exec md5sum {} + | sort &&
		 cat extras-greet.substvars)
	} &&
	snapshot >before &&
	(cd greet && for h in dh_extras_unprefix dh_extras_relocate dh_extras_gsettings \
		dh_extras_metainfo dh_extras_python dh_extras_modules dh_extras_icons dh_extras_launchers dh_extras_apparmor dh_extras_scripts \
		dh_extras_declare dh_extras_check; do $h || exit 1; done) >/dev/null &&
	snapshot >after &&
	cmp before after
'

test_expect_success 'a reserved URL scheme in MimeType= is dropped, with a warning' '
	cp -a greet mime &&
	d=debian/extras-greet/usr/share/applications/extras-greet.desktop &&
	sed -i "s/^Categories=.*/&\nMimeType=x-scheme-handler\/https;text\/plain;X-Scheme-Handler\/MAILTO;x-scheme-handler\/greet;/" mime/$d &&
	(cd mime && dh_extras_relocate) >out 2>err &&
	grep_q "^MimeType=text/plain;x-scheme-handler/greet;$" mime/$d &&
	grep_q "^dh_extras_relocate: warning: /usr/share/applications/extras-greet.desktop:8: MimeType= claim x-scheme-handler/https dropped: the app is no handler of those links unless the store grants it the reserved privilege url-handlers (debian/extras.yaml)$" err &&
	grep_q "^dh_extras_relocate: warning: .*:8: MimeType= claim X-Scheme-Handler/MAILTO dropped" err &&
	test $(grep -c warning err) = 2 &&
	sed -i "s/^MimeType=.*/MimeType = text\/plain; x-scheme-handler\/irc ;/" mime/$d &&
	(cd mime && dh_extras_relocate) >out 2>err &&
	grep_q "^MimeType = text/plain;$" mime/$d &&
	grep_q "MimeType= claim x-scheme-handler/irc dropped" err &&
	sed -i "s/^MimeType.*/MimeType=x-scheme-handler\/irc;x-scheme-handler\/ircs;/" mime/$d &&
	cp mime/$d before.desktop &&
	(cd mime && dh_extras_relocate) >out 2>err &&
	test $(grep -c warning err) = 2 &&
	! grep -q "^MimeType" mime/$d &&
	grep -v "^MimeType" before.desktop >expect &&
	cmp expect mime/$d
'

test_expect_success 'an app granted url-handlers keeps its claims' '
	rm -rf mime && cp -a greet mime &&
	d=debian/extras-greet/usr/share/applications/extras-greet.desktop &&
	sed -i "s/^Categories=.*/&\nMimeType=x-scheme-handler\/https;/" mime/$d &&
	printf "privileges: [url-handlers]\n" >mime/debian/extras.yaml &&
	(cd mime && dh_extras_relocate) >out 2>err &&
	grep_q "^MimeType=x-scheme-handler/https;$" mime/$d &&
	! grep -q warning err
'

test_expect_success 'autotools: dpkg-deb --info shows the extras name' '
	test "$(dpkg-deb -f extras-greet_1.0_*.deb Package)" = extras-greet
'

test_expect_success 'plain Makefile: an override renaming a file in usr/bin still works' '
	build_fixture notes || { tail -n 30 notes.log; false; } &&
	grep_q "dh-extras: makefile: building for /$ROOT/notes" notes.log &&
	grep_q "make .*\"CFLAGS=-O2 -g\" prefix=/$ROOT/notes PREFIX=/$ROOT/notes$" notes.log &&
	deb_files extras-notes_1.0_*.deb >files &&
	grep_q "^$ROOT/notes/bin/notes-app$" files &&
	grep_q "^$ROOT/notes/bin/notes$" files &&
	grep_q "^   dh_extras_links" notes.log &&
	dpkg-deb -c extras-notes_1.0_*.deb | grep -q " ./$ROOT/notes/bin/notes -> notes-app$" &&
	test -z "$(outside_namespace extras-notes_1.0_*.deb /$ROOT/notes)" &&
	in_namespace extras-notes_1.0_*.deb -- /$ROOT/notes/bin/notes-app >out &&
	echo "notes: data found" >expect && cmp expect out
'

test_expect_success 'two binaries of one source share one namespace' '
	build_fixture chime || { tail -n 30 chime.log; false; } &&
	deb_files extras-chime_1.0_*.deb >prog && deb_files extras-chime-data_1.0_all.deb >data &&
	grep_q "^$ROOT/chime/bin/chime$" prog &&
	grep_q "^$ROOT/chime/share/chime/sounds/ding.txt$" data &&
	test -z "$(outside_namespace extras-chime_1.0_*.deb /$ROOT/chime)" &&
	test -z "$(outside_namespace extras-chime-data_1.0_all.deb /$ROOT/chime)" &&
	dpkg-deb -f extras-chime_1.0_*.deb Depends >depends &&
	grep_q "extras-chime-data (= 1.0)" depends &&
	in_namespace extras-chime_1.0_*.deb extras-chime-data_1.0_all.deb -- \
		/$ROOT/chime/bin/chime >out &&
	echo "ding (from extras-chime-data)" >expect && cmp expect out
'

test_expect_success 'a path no build system variable reaches fails the build, located' '
	! build_fixture stubborn &&
	bin=stubborn/debian/extras-stubborn/$ROOT/stubborn/bin/stubborn &&
	offset=$(grep -boa /usr/share/stubborn $bin | head -n1 | cut -d: -f1) &&
	grep_q "^dh_extras_relocate: error: /$ROOT/stubborn/bin/stubborn: offset $offset: ./usr/share/stubborn.: " stubborn.log &&
	grep_q "^dh_extras_relocate: error: 1 reference to moved paths cannot be patched" stubborn.log &&
	! ls extras-stubborn_*.deb 2>/dev/null
'

test_expect_success 'the same path, declared acceptable, is reported and the build goes on' '
	cp -a "$TOP/tests/fixtures/stubborn" accepting-src &&
	printf "unpatched:\n  - /$ROOT/stubborn/bin/stubborn\n" >accepting-src/debian/extras.yaml &&
	build_fixture accepting "$TRASH/accepting-src" || { tail -n 30 accepting.log; false; } &&
	grep_q "0 unpatched (1 more accepted)" accepting.log &&
	python3 -c "import json; r = json.load(open(\"accepting/debian/.debhelper/extras/relocate.json\")); \
		assert r[\"accepted\"][0][\"string\"] == \"/usr/share/stubborn\", r" &&
	ls extras-stubborn_*.deb
'

# A real package from the archive, converted by hand: renamed, the
# relations only the shared name space needed dropped, the add-on added.
if mkdir hello-src && (cd hello-src && apt-get source -q hello) >hello-source.log 2>&1; then
	test_expect_success 'archive hello: converted by hand, built with the add-on' '
		dir=$(ls -d hello-src/hello-*/) &&
		sed -i -e "s/^Source: hello$/Source: extras-hello/" \
			-e "s/^Package: hello$/Package: extras-hello/" \
			-e "/^Conflicts:/d" -e "/^Replaces:/d" -e "/^Breaks:/d" \
			-e "s/^Build-Depends: /Build-Depends: dh-sequence-extras, /" \
			$dir/debian/control &&
		sed -i "1s/^hello /extras-hello /" $dir/debian/changelog &&
		build_fixture hello $dir || { tail -n 30 hello.log; false; }
	'
	test_expect_success 'archive hello: installed in the namespace, says Bonjour' '
		deb=$(ls extras-hello_*.deb) &&
		test -z "$(outside_namespace $deb /$ROOT/hello)" &&
		in_namespace $deb -- env LANG=C.UTF-8 LANGUAGE=fr /$ROOT/hello/bin/hello >out &&
		grep_q "^Bonjour, le monde" out
	'
else
	test_skip 'archive hello: converted by hand, built with the add-on' \
		'apt-get source hello failed (no deb-src?)'
	test_skip 'archive hello: installed in the namespace, says Bonjour' \
		'apt-get source hello failed'
fi

test_done
