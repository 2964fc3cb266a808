#!/bin/sh
# extras-rewrite: a staged tree moves into its namespace, exports keep
# their place under extras- names, and every reference follows.

. "$TOP/tests/lib.sh"

NS=opt/extras.ubuntu.com/foo
ABSNS=/$NS

# A staged package tree with one of everything the rewriter must handle.
make_tree () {
	rm -rf tree && mkdir -p tree/usr/bin tree/usr/share/foo/data \
		tree/usr/share/applications tree/usr/share/doc/foo \
		tree/usr/share/icons/hicolor/48x48/apps \
		tree/usr/share/icons/hicolor/scalable/apps \
		tree/usr/share/pixmaps tree/usr/share/dbus-1/services \
		tree/usr/lib/foo tree/usr/lib/pkgconfig tree/etc/foo \
		tree/usr/share/foo2 \
		tree/usr/share/locale/fr/LC_MESSAGES tree/usr/share/man/man1 &&
	cat >tree/usr/bin/foo <<-'EOS' &&
	#!/usr/bin/foo-helper -x
	data=/usr/share/foo/data/words.txt
	conf=/etc/foo/foo.conf
	keep=/usr/share/foobar and /usr/share/application and /usr/share/foo2x
	lib="/usr/lib/foo"
	EOS
	printf '#!/bin/sh\necho helper\n' >tree/usr/bin/foo-helper &&
	chmod 755 tree/usr/bin/foo tree/usr/bin/foo-helper &&
	echo words >tree/usr/share/foo/data/words.txt &&
	echo 'datadir = /usr/share/foo' >tree/etc/foo/foo.conf &&
	echo y >tree/usr/share/foo2/y &&
	cat >tree/usr/share/applications/foo.desktop <<-'EOS' &&
	[Desktop Entry]
	Name=Foo
	Exec=foo --open %U
	TryExec=foo
	Icon=foo
	Actions=new;

	[Desktop Action new]
	Name=New window
	Exec="foo" --new-window
	Icon=foo-symbolic
	EOS
	cat >tree/usr/share/dbus-1/services/org.example.Foo.service <<-'EOS' &&
	[D-BUS Service]
	Name=org.example.Foo
	Exec=/usr/bin/foo --gapplication-service
	EOS
	printf 'PNG' >tree/usr/share/icons/hicolor/48x48/apps/foo.png &&
	printf '<svg/>' >tree/usr/share/icons/hicolor/scalable/apps/foo-symbolic.svg &&
	ln -s ../icons/hicolor/48x48/apps/foo.png tree/usr/share/pixmaps/foo.png &&
	echo 'See /usr/share/foo/data.' >tree/usr/share/doc/foo/README &&
	printf 'prefix=/usr\nlibdir=/usr/lib/foo\n' >tree/usr/lib/pkgconfig/foo.pc &&
	printf 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' \
		>fr.po &&
	printf 'msgid "Data in %%s"\nmsgstr "Donn\303\251es dans /usr/share/foo/data"\n' \
		>>fr.po &&
	printf '\nmsgid "See /usr/share/foo"\nmsgstr "Voir /usr/share/foo"\n' \
		>>fr.po &&
	msgfmt -o tree/usr/share/locale/fr/LC_MESSAGES/foo.mo fr.po &&
	echo '.TH FOO 1' >tree/usr/share/man/man1/foo.1 &&
	# Symlinks: absolute, relative, dangling, to a directory, to the system.
	ln -s /usr/share/foo/data/words.txt tree/usr/share/foo/words-abs &&
	ln -s data/words.txt tree/usr/share/foo/words-rel &&
	ln -s /usr/share/foo/missing tree/usr/share/foo/dangling &&
	ln -s /usr/share/foo/data tree/usr/lib/foo/data &&
	ln -s ../../share/common-licenses/GPL-2 tree/usr/share/foo/COPYING &&
	ln -s foo tree/usr/bin/foo-alias &&
	# Hardlinks, special modes, odd names, an empty file.
	cp tree/etc/foo/foo.conf tree/usr/share/foo/a.conf &&
	ln tree/usr/share/foo/a.conf tree/usr/share/foo/b.conf &&
	echo 'ro /usr/share/foo' >tree/usr/share/foo/readonly &&
	chmod 444 tree/usr/share/foo/readonly &&
	cp tree/usr/bin/foo-helper tree/usr/bin/foo-suid &&
	chmod 4755 tree/usr/bin/foo-suid &&
	echo 'x /usr/share/foo' >"tree/usr/share/foo/with space" &&
	echo 'y /usr/share/foo' >"tree/usr/share/foo/$(printf 'caf\351')" &&
	: >tree/usr/share/foo/empty &&
	touch -d '2020-01-02 03:04:05' tree/usr/bin/foo tree/usr/share/foo/a.conf
}

# The tree holds one reference that cannot be patched (in a message the
# program looks up in the .mo), so a run ends with status 1.
run_rewrite () {
	expect_status 1 extras-rewrite --app foo --json report.json "$@" tree \
		2>stderr
}

test_expect_success 'the tree is rewritten; the catalog is reported, status 1' '
	make_tree &&
	run_rewrite &&
	python3 -m json.tool report.json >/dev/null &&
	grep_q "error: $ABSNS/share/locale/fr/LC_MESSAGES/foo.mo: offset [0-9]*: ./usr/share/foo.: gettext catalog" stderr &&
	test "$(grep -c error: stderr)" = 1
'

test_expect_success 'a catalogue'"'"'s translations are patched, and gettext reads them' '
	msgunfmt tree/$NS/share/locale/fr/LC_MESSAGES/foo.mo >po &&
	grep_q "^msgstr \"Donn.*es dans $ABSNS/share/foo/data\"\$" po &&
	grep_q "^msgid \"See /usr/share/foo\"\$" po &&
	grep_q "^msgstr \"Voir $ABSNS/share/foo\"\$" po &&
	LANGUAGE=fr LC_ALL=C.UTF-8 TEXTDOMAINDIR=$PWD/tree/$NS/share/locale \
		gettext -d foo "Data in %s" >said &&
	printf "Donn\303\251es dans %s/share/foo/data" "$ABSNS" >expect &&
	cmp expect said
'

test_expect_success 'nothing is left outside the namespace but exports' '
	(cd tree && find . ! -type d | sort) >files &&
	! grep -v -e "^\./$NS/" -e "^\./usr/share/doc/" \
		-e "^\./usr/share/applications/extras-" \
		-e "^\./usr/share/icons/.*/extras-" \
		-e "^\./usr/share/pixmaps/extras-" \
		-e "^\./usr/share/dbus-1/services/" files
'

test_expect_success 'usr/X, etc/X, man pages and locale move into ROOT/APP' '
	test -x tree/$NS/bin/foo &&
	test -f tree/$NS/etc/foo/foo.conf &&
	test -f tree/$NS/share/foo/data/words.txt &&
	test -f tree/$NS/share/man/man1/foo.1 &&
	test -f tree/$NS/share/locale/fr/LC_MESSAGES/foo.mo &&
	test ! -e tree/usr/bin && test ! -e tree/etc && test ! -e tree/usr/lib
'

test_expect_success 'exports are renamed, icons with their -symbolic twin' '
	test -f tree/usr/share/applications/extras-foo.desktop &&
	test -f tree/usr/share/icons/hicolor/48x48/apps/extras-foo.png &&
	test -f tree/usr/share/icons/hicolor/scalable/apps/extras-foo-symbolic.svg &&
	test -f tree/usr/share/dbus-1/services/org.example.Foo.service
'
test_expect_success 'an install'"'"'s own docdir (usr/share/doc/foo) is the app'"'"'s data' '
	test -f tree/$NS/share/doc/foo/README &&
	test ! -e tree/usr/share/doc/foo
'

test_expect_success 'shebang and paths in a script follow, at path boundaries' '
	f=tree/$NS/bin/foo &&
	grep_q "^#!$ABSNS/bin/foo-helper -x$" $f &&
	grep_q "^data=$ABSNS/share/foo/data/words.txt$" $f &&
	grep_q "^conf=$ABSNS/etc/foo/foo.conf$" $f &&
	grep_q "^keep=/usr/share/foobar and /usr/share/application and /usr/share/foo2x$" $f &&
	grep_q "^lib=\"$ABSNS/lib/foo\"$" $f
'

test_expect_success 'a directory the package owns is rewritten, a shared one is not' '
	grep_q "^datadir = $ABSNS/share/foo$" tree/$NS/etc/foo/foo.conf &&
	grep_q "^prefix=/usr$" tree/$NS/lib/pkgconfig/foo.pc &&
	grep_q "^libdir=$ABSNS/lib/foo$" tree/$NS/lib/pkgconfig/foo.pc
'

test_expect_success '/usr/share/foo is told apart from /usr/share/foobar and foo2' '
	test -f tree/$NS/share/foo2/y &&
	grep_q "=/usr/share/foobar and" tree/$NS/bin/foo &&
	grep_q " /usr/share/foo2x$" tree/$NS/bin/foo
'

test_expect_success '.desktop: Exec, TryExec and Icon in every group, arguments kept' '
	d=tree/usr/share/applications/extras-foo.desktop &&
	grep_q "^Exec=$ABSNS/bin/foo --open %U$" $d &&
	grep_q "^TryExec=$ABSNS/bin/foo$" $d &&
	grep_q "^Icon=extras-foo$" $d &&
	grep_q "^Exec=\"$ABSNS/bin/foo\" --new-window$" $d &&
	grep_q "^Icon=extras-foo-symbolic$" $d
'

test_expect_success 'D-Bus service keeps its name, Exec is patched' '
	grep_q "^Exec=$ABSNS/bin/foo --gapplication-service$" \
		tree/usr/share/dbus-1/services/org.example.Foo.service
'

test_expect_success 'symlinks: absolute, relative, dangling, directory, system' '
	test "$(readlink tree/$NS/share/foo/words-abs)" = "$ABSNS/share/foo/data/words.txt" &&
	test "$(readlink tree/$NS/share/foo/words-rel)" = "data/words.txt" &&
	test "$(readlink tree/$NS/share/foo/dangling)" = "$ABSNS/share/foo/missing" &&
	test "$(readlink tree/$NS/lib/foo/data)" = "$ABSNS/share/foo/data" &&
	test "$(readlink tree/$NS/share/foo/COPYING)" = "/usr/share/common-licenses/GPL-2" &&
	test "$(readlink tree/$NS/bin/foo-alias)" = "foo" &&
	test "$(readlink tree/usr/share/pixmaps/extras-foo.png)" = \
		"../icons/hicolor/48x48/apps/extras-foo.png" &&
	test -f tree/$NS/share/foo/words-rel
'

test_expect_success 'hardlinks stay hardlinks after patching' '
	test tree/$NS/share/foo/a.conf -ef tree/$NS/share/foo/b.conf &&
	grep_q "$ABSNS/share/foo" tree/$NS/share/foo/b.conf
'

test_expect_success 'modes and mtimes are kept; set-id and read-only flagged' '
	test "$(stat -c %a tree/$NS/bin/foo-suid)" = 4755 &&
	test "$(stat -c %a tree/$NS/share/foo/readonly)" = 444 &&
	grep_q "$ABSNS/share/foo" tree/$NS/share/foo/readonly &&
	test "$(stat -c %Y tree/$NS/bin/foo)" = "$(date -d "2020-01-02 03:04:05" +%s)" &&
	python3 - <<-EOS
	import json
	r = json.load(open("report.json"))
	flags = {(f["file"], f["flag"]) for f in r["flags"]}
	assert ("$ABSNS/bin/foo-suid", "setuid") in flags, flags
	assert ("$ABSNS/share/foo/readonly", "read-only") in flags, flags
	EOS
'

test_expect_success 'names with a space and with a non-UTF-8 byte are patched' '
	grep_q "^x $ABSNS/share/foo$" "tree/$NS/share/foo/with space" &&
	grep_q "^y $ABSNS/share/foo$" "tree/$NS/share/foo/$(printf "caf\351")" &&
	grep_q "caf\\\\\\\\xe9" report.json
'

test_expect_success 'an empty file stays empty' '
	test -f tree/$NS/share/foo/empty && test ! -s tree/$NS/share/foo/empty
'

test_expect_success 'the report lists moves, exports and patches with lines' '
	python3 - <<-EOS
	import json
	r = json.load(open("report.json"))
	assert r["namespace"] == "$ABSNS"
	moves = {(m["from"], m["to"]) for m in r["moves"]}
	assert ("/usr/bin/foo", "$ABSNS/bin/foo") in moves
	ex = {(m["from"], m["to"]) for m in r["exports"]}
	assert ("/usr/share/applications/foo.desktop",
	        "/usr/share/applications/extras-foo.desktop") in ex
	p = [x for x in r["patches"] if x["file"] == "$ABSNS/bin/foo"
	     and x["kind"] == "text" and x["line"] == 3]
	assert p and p[0]["old"] == "/etc/foo", p
	assert r["summary"]["patches"] == len(r["patches"])
	EOS
'

test_expect_success 'a second run changes nothing' '
	(cd tree && find . -printf "%p %m %s %T@ %l\n" | sort && \
		find . -type f -exec md5sum {} + | sort) >before &&
	run_rewrite &&
	(cd tree && find . -printf "%p %m %s %T@ %l\n" | sort && \
		find . -type f -exec md5sum {} + | sort) >after &&
	cmp before after &&
	python3 -c "import json; r = json.load(open(\"report.json\")); \
		assert not r[\"moves\"] and not r[\"patches\"], r[\"patches\"]"
'

test_expect_success '--dry-run plans the same and writes nothing' '
	make_tree &&
	(cd tree && find . -printf "%p %T@ %l\n" | sort && \
		find . -type f -exec md5sum {} + | sort) >before &&
	run_rewrite --dry-run &&
	(cd tree && find . -printf "%p %T@ %l\n" | sort && \
		find . -type f -exec md5sum {} + | sort) >after &&
	cmp before after &&
	python3 -c "import json; r = json.load(open(\"report.json\")); \
		assert r[\"dry_run\"] and len(r[\"moves\"]) > 10"
'

# After dh_link: an upstream install made usr/bin/bar -> foo, the first run
# moved it into the namespace, and dh_link made it again from
# debian/PKG.links; a file the first run moved is replaced the same way.
make_relinked () {
	rm -rf tree && mkdir -p tree/usr/bin tree/$NS/bin tree/$NS/share/man/man1 &&
	printf "#!/bin/sh\necho foo\n" >tree/$NS/bin/foo && chmod 755 tree/$NS/bin/foo &&
	ln -s foo tree/$NS/bin/bar &&
	ln -s foo tree/usr/bin/bar &&
	mkdir -p tree/usr/share/man/man1 && echo page >tree/$NS/share/man/man1/foo.1.gz &&
	echo old >tree/$NS/share/man/man1/baz.1.gz &&
	ln -s foo.1.gz tree/usr/share/man/man1/baz.1.gz
}

test_expect_success '--links-replace: a link dh_link made again replaces the one moved before' '
	make_relinked &&
	extras-rewrite --app foo --links-replace tree &&
	test "$(readlink tree/$NS/bin/bar)" = foo &&
	test "$(readlink tree/$NS/share/man/man1/baz.1.gz)" = foo.1.gz &&
	test ! -L tree/usr/bin/bar && test ! -L tree/usr/share/man/man1/baz.1.gz &&
	test "$(tree/$NS/bin/bar)" = foo
'

test_expect_success '--links-replace --dry-run plans it and writes nothing' '
	make_relinked &&
	(cd tree && find . -printf "%p %l\n" | sort) >before &&
	extras-rewrite --app foo --links-replace --dry-run tree &&
	(cd tree && find . -printf "%p %l\n" | sort) >after &&
	cmp before after
'

# A GNU Info manual: makeinfo's index cookie holds NUL bytes, yet the
# reference is patched, and each offset of the tag table still points at
# its node (units' manual names its data directory).
test_expect_success 'an Info manual is patched as text, its tag table following' '
	rm -rf tree && mkdir -p tree/usr/share/info tree/usr/share/foo &&
	echo words >tree/usr/share/foo/words &&
	printf "\037\nFile: foo.info,  Node: Top\nData: /usr/share/foo/words\n" \
		>tree/usr/share/info/foo.info &&
	printf "\037\nFile: foo.info,  Node: Index\n%b" \
		"\0\b[index\0\b]\n* words: Top.\n" >>tree/usr/share/info/foo.info &&
	index=$(grep -boa "$(printf "\037")" tree/usr/share/info/foo.info |
		sed -n "2s/:.*//p") &&
	printf "\037\nTag Table:\nNode: Top\1770\nNode: Index\177%s\n\037\nEnd Tag Table\n" \
		"$index" >>tree/usr/share/info/foo.info &&
	extras-rewrite --app foo tree &&
	info=tree/$NS/share/info/foo.info &&
	grep -a -q "^Data: $ABSNS/share/foo/words\$" "$info" &&
	moved=$(sed -n "s/^Node: Index$(printf "\177")//p" "$info") &&
	test "$moved" -eq $((index + ${#ABSNS} - 4)) &&
	test "$(dd if="$info" bs=1 skip="$moved" count=16 2>/dev/null)" = \
		"$(printf "\037\nFile: foo.info")"
'

test_done
