#!/bin/sh
# extras-rewrite on compiled programs and on data it must not rewrite:
# RUNPATH follows the private libraries, strings that do not fit are
# reported with their offsets, compressed and UTF-16 data is reported.

. "$TOP/tests/lib.sh"

NS=opt/extras.ubuntu.com/foo
ABSNS=/$NS

test_expect_success 'build a program with a private library and RUNPATH' '
	mkdir -p tree/usr/bin tree/usr/lib/foo tree/usr/share/foo &&
	cat >bar.c <<-\EOS &&
	const char *bar(void) { return "private library"; }
	EOS
	cat >prog.c <<-\EOS &&
	#include <stdio.h>
	const char *bar(void);
	int main(void) {
		puts(bar());
		fputs("/usr/share/foo/data.txt\n", stdout);
		fputs("data.txt\n", stdout);
		return 0;
	}
	EOS
	cc -shared -fPIC -o tree/usr/lib/foo/libbar.so bar.c &&
	cc -o tree/usr/bin/prog prog.c -Ltree/usr/lib/foo -lbar \
		-Wl,-rpath,/usr/lib/foo -Wl,--enable-new-dtags &&
	echo data >tree/usr/share/foo/data.txt &&
	printf "see /usr/share/foo/data.txt\n" | gzip -n >tree/usr/share/foo/notes.gz &&
	printf "xz /usr/share/foo/data.txt\n" | xz >tree/usr/share/foo/notes.xz &&
	printf "/usr/share/foo/data.txt" | iconv -f ascii -t utf-16le >tree/usr/share/foo/utf16.bin &&
	cp tree/usr/bin/prog prog.orig
'

test_expect_success 'the run ends with status 1 and one line per reference' '
	expect_status 1 extras-rewrite --app foo --json report.json tree 2>stderr &&
	test "$(grep -c ": error: " stderr)" = 4
'

test_expect_success 'a string that does not fit is reported with its offset' '
	offset=$(grep -boa "/usr/share/foo/data.txt" prog.orig | head -n1 | cut -d: -f1) &&
	grep_q "error: $ABSNS/bin/prog: offset $offset: ./usr/share/foo.: the new path is 22 bytes longer" stderr
'

test_expect_success 'RUNPATH becomes $ORIGIN-relative and the program runs' '
	test "$(patchelf --print-rpath tree/$NS/bin/prog)" = "\$ORIGIN/../lib/foo" &&
	tree/$NS/bin/prog >out &&
	head -n1 out >first && echo "private library" >expect &&
	cmp first expect
'

test_expect_success 'nothing unsafe was written: only RUNPATH changed' '
	! grep -q -a "/usr/lib/foo" tree/$NS/bin/prog &&
	grep -q -a "/usr/share/foo/data.txt" tree/$NS/bin/prog
'

test_expect_success 'a reference inside gzip data is reported, not patched' '
	grep_q "$ABSNS/share/foo/notes.gz: offset 4: ./usr/share/foo.: inside gzip-compressed data" stderr &&
	zcat tree/$NS/share/foo/notes.gz | grep -q "see /usr/share/foo/data.txt"
'

test_expect_success 'a reference inside xz data is reported, not patched' '
	grep_q "$ABSNS/share/foo/notes.xz: offset 3: ./usr/share/foo.: inside xz-compressed data" stderr
'

test_expect_success 'a UTF-16 path is reported' '
	grep_q "$ABSNS/share/foo/utf16.bin: offset 0: ./usr/share/foo.: UTF-16 string" stderr
'

test_expect_success 'the JSON report lists the RUNPATH patch and the rest' '
	python3 - <<-EOS
	import json
	r = json.load(open("report.json"))
	rp = [p for p in r["patches"] if p["kind"] == "rpath"]
	assert rp and rp[0]["old"] == "/usr/lib/foo", rp
	assert rp[0]["new"] == "\$ORIGIN/../lib/foo", rp
	assert r["summary"]["unpatched"] == 4
	for u in r["unpatched"]:
	    assert set(u) == {"file", "offset", "string", "reason"}, u
	EOS
'

test_expect_success 'a RUNPATH of many short entries may grow more than fourfold' '
	deep=usr/lib/foo/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20 &&
	mkdir -p deep/$deep &&
	rp=$(for i in $(seq 1000); do printf /usr/lib/foo:; done) &&
	cc -shared -fPIC -o deep/$deep/libdeep.so bar.c \
		-Wl,-rpath,${rp%:} -Wl,--enable-new-dtags &&
	extras-rewrite --app foo deep >deep.out 2>&1 &&
	one="\$ORIGIN$(for i in $(seq 20); do printf /..; done)" &&
	want=$(for i in $(seq 1000); do printf "%s:" "$one"; done) &&
	test "$(patchelf --print-rpath deep/$NS/lib/foo/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20/libdeep.so)" = "${want%:}"
'

# Debian's packages link against their private libraries without RUNPATH:
# in /usr/lib the loader finds them anyway (aria2c and libaria2.so.0), in
# the namespace it does not.
test_expect_success 'a program needing a namespace library without RUNPATH gets one' '
	mkdir -p priv/usr/bin priv/usr/lib/x86_64-linux-gnu &&
	cc -shared -fPIC -Wl,-soname,libqux.so.0 -o priv/usr/lib/x86_64-linux-gnu/libqux.so.0.0.0 bar.c &&
	ln -s libqux.so.0.0.0 priv/usr/lib/x86_64-linux-gnu/libqux.so.0 &&
	ln -s libqux.so.0 priv/usr/lib/x86_64-linux-gnu/libqux.so &&
	cp prog.c qux.c &&
	cc -o priv/usr/bin/qux qux.c -Lpriv/usr/lib/x86_64-linux-gnu -lqux &&
	test -z "$(patchelf --print-rpath priv/usr/bin/qux)" &&
	extras-rewrite --app foo priv >priv.out 2>&1 &&
	test "$(patchelf --print-rpath priv/$NS/bin/qux)" = "\$ORIGIN/../lib/x86_64-linux-gnu" &&
	env -u LD_LIBRARY_PATH priv/$NS/bin/qux >out &&
	head -n1 out >first && echo "private library" >expect && cmp first expect &&
	test -z "$(patchelf --print-rpath priv/$NS/lib/x86_64-linux-gnu/libqux.so.0.0.0)"
'

test_expect_success 'a RUNPATH lacking the library directory gets it added, once' '
	mkdir -p priv2/usr/bin priv2/usr/lib/x86_64-linux-gnu &&
	cp -a priv/$NS/lib/x86_64-linux-gnu/. priv2/usr/lib/x86_64-linux-gnu/ &&
	cc -o priv2/usr/bin/qux qux.c -Lpriv2/usr/lib/x86_64-linux-gnu -lqux \
		-Wl,-rpath,/usr/lib/elsewhere -Wl,--enable-new-dtags &&
	extras-rewrite --app foo priv2 >priv2.out 2>&1 &&
	test "$(patchelf --print-rpath priv2/$NS/bin/qux)" = "/usr/lib/elsewhere:\$ORIGIN/../lib/x86_64-linux-gnu" &&
	extras-rewrite --app foo priv2 >again.out 2>&1 &&
	test "$(patchelf --print-rpath priv2/$NS/bin/qux)" = "/usr/lib/elsewhere:\$ORIGIN/../lib/x86_64-linux-gnu"
'

# patchelf is called through a wrapper that logs its arguments and fails
# on any file named bad: only a file with no room for its RUNPATH meets it.
test_expect_success 'set up a patchelf that logs its calls' '
	real=$(command -v patchelf) &&
	mkdir -p wrap &&
	cat >wrap/patchelf <<-EOS &&
	#!/bin/sh
	echo "\$*" >>"$TRASH/patchelf.log"
	for f; do case \$f in */bad.dpkg-new) exit 1 ;; esac; done
	exec "$real" "\$@"
	EOS
	chmod +x wrap/patchelf &&
	mkdir -p many/usr/bin many/usr/lib/foo &&
	cc -shared -fPIC -o many/usr/lib/foo/libbar.so bar.c &&
	for p in one two three four; do
		cc -o many/usr/bin/$p prog.c -Lmany/usr/lib/foo -lbar \
			-Wl,-rpath,/usr/lib/foo -Wl,--enable-new-dtags || return 1
	done &&
	cp -a many bad && cp many/usr/bin/one bad/usr/bin/bad &&
	ln many/usr/bin/four many/usr/bin/four-too
'

test_expect_success 'a RUNPATH the files have room for takes no patchelf call' '
	rm -f patchelf.log &&
	PATH=$TRASH/wrap:$PATH extras-rewrite --app foo --jobs 1 many >many.out 2>&1 &&
	test ! -e patchelf.log &&
	for p in one two three four; do
		test "$(patchelf --print-rpath many/$NS/bin/$p)" = "\$ORIGIN/../lib/foo" &&
		readelf -d many/$NS/bin/$p >dyn &&
		grep_q "(RUNPATH) *Library runpath: \[\$ORIGIN/../lib/foo\]" dyn &&
		many/$NS/bin/$p >out || return 1
	done &&
	test many/$NS/bin/four -ef many/$NS/bin/four-too &&
	! grep -q patchelf many.out &&
	test -z "$(find many -name "*.dpkg-new")"
'

# A RUNPATH of 300 entries, each growing by six bytes: more than the
# padding of a page holds, so it goes to a segment of its own at the end
# of the file; a system program, coreutils' stat, has no room for even a
# short one.  Both get theirs with no patchelf, in place (the inode stays),
# run, and find their library in the namespace.
test_expect_success 'a RUNPATH with no room in the file gets a new segment, not patchelf' '
	mkdir -p long/usr/bin long/usr/lib/foo long/usr/lib/x86_64-linux-gnu &&
	cp many/$NS/lib/foo/libbar.so long/usr/lib/foo/ &&
	rp=$(for i in $(seq 300); do printf /usr/lib/foo:; done) &&
	cc -o long/usr/bin/one prog.c -Llong/usr/lib/foo -lbar \
		-Wl,-rpath,${rp%:} -Wl,--enable-new-dtags &&
	cp /usr/bin/stat long/usr/bin/stat &&
	cp -L /lib/x86_64-linux-gnu/libselinux.so.1 long/usr/lib/x86_64-linux-gnu/ &&
	test -z "$(patchelf --print-rpath long/usr/bin/stat)" &&
	size=$(stat -c %s long/usr/bin/stat) &&
	ino=$(stat -c %i long/usr/bin/stat) &&
	rm -f patchelf.log &&
	PATH=$TRASH/wrap:$PATH extras-rewrite --app foo long >long.out 2>&1 &&
	test ! -e patchelf.log &&
	! grep -q "by patchelf" long.out &&
	readelf -d long/$NS/bin/one >dyn &&
	grep_q "(RUNPATH) *Library runpath: \[\$ORIGIN/../lib/foo:\$ORIGIN/../lib/foo:" dyn &&
	env -u LD_LIBRARY_PATH long/$NS/bin/one >out &&
	head -n1 out >first && echo "private library" >expect && cmp first expect &&
	readelf -d long/$NS/bin/stat >dyn &&
	grep_q "(RUNPATH) *Library runpath: \[\$ORIGIN/../lib/x86_64-linux-gnu\]" dyn &&
	test "$(stat -c %s long/$NS/bin/stat)" -gt "$size" &&
	test "$(stat -c %i long/$NS/bin/stat)" = "$ino" &&
	env -u LD_LIBRARY_PATH long/$NS/bin/stat --version >out &&
	grep_q "^stat (GNU coreutils)" out &&
	env -u LD_LIBRARY_PATH ldd long/$NS/bin/stat >out &&
	grep_q "libselinux.so.1 => .*/long/$NS/bin/[.][.]/lib/x86_64-linux-gnu/libselinux.so.1 " out
'

# fill_dynamic FILE: every spare DT_NULL of the 64-bit FILE'"'"'s dynamic
# section taken (as DT_DEBUG): no entry is left for a RUNPATH, which only
# patchelf (moving the section) can add.
fill_dynamic () {
	python3 - "$1" <<-\EOS
	import struct, sys
	f = open(sys.argv[1], "r+b")
	b = bytearray(f.read())
	shoff, = struct.unpack_from("<Q", b, 0x28)
	shentsize, shnum = struct.unpack_from("<HH", b, 0x3a)
	for i in range(shnum):
	    h = shoff + i * shentsize
	    if struct.unpack_from("<I", b, h + 4)[0] != 6:
	        continue
	    off, size = struct.unpack_from("<QQ", b, h + 0x18)
	    n = size // 16
	    tags = [struct.unpack_from("<Q", b, off + 16 * k)[0] for k in range(n)]
	    for k in range(tags.index(0), n - 1):
	        struct.pack_into("<QQ", b, off + 16 * k, 21, 0)
	f.seek(0)
	f.write(b)
	EOS
}

# Programs with no RUNPATH and no spare dynamic entry for one.
test_expect_success 'a RUNPATH with no room goes to patchelf, counted; a failure names the file' '
	mkdir -p full/usr/bin full/usr/lib/foo &&
	cp many/$NS/lib/foo/libbar.so full/usr/lib/foo/ &&
	for p in one bad; do
		cc -o full/usr/bin/$p prog.c -Lfull/usr/lib/foo -lbar &&
		fill_dynamic full/usr/bin/$p || return 1
	done &&
	rm -f patchelf.log &&
	expect_status 2 env PATH=$TRASH/wrap:$PATH extras-rewrite --app foo --jobs 1 full >full.out 2>&1 &&
	grep_q "$NS/bin/bad: patchelf --set-rpath .\$ORIGIN/../lib/foo. failed" full.out &&
	test "$(wc -l <patchelf.log)" = 2 &&
	grep_q "^--set-rpath .* --output full/$NS/bin/one.dpkg-new full/$NS/bin/one\$" patchelf.log &&
	test "$(patchelf --print-rpath full/$NS/bin/one)" = "\$ORIGIN/../lib/foo" &&
	env -u LD_LIBRARY_PATH full/$NS/bin/one >out &&
	test -z "$(patchelf --print-rpath full/$NS/bin/bad)" &&
	test -z "$(find full -name "*.dpkg-new")" &&
	rm -rf full2 && mkdir -p full2/usr/bin full2/usr/lib/foo &&
	cp many/$NS/lib/foo/libbar.so full2/usr/lib/foo/ &&
	cc -o full2/usr/bin/one prog.c -Lfull2/usr/lib/foo -lbar &&
	fill_dynamic full2/usr/bin/one &&
	extras-rewrite --app foo --json full2.json full2 >full2.out 2>&1 &&
	grep_q "1 RUNPATH set by patchelf (no room in the file)" full2.out &&
	python3 -c "import json; assert json.load(open(\"full2.json\"))[\"summary\"][\"rpath_patchelf\"] == 1"
'

test_expect_success 'a .desktop file naming a program of bin, sbin or games by its bare name gets its path' '
	mkdir -p menu/usr/bin menu/usr/sbin menu/usr/games menu/usr/share/applications &&
	for p in bin/tool sbin/admin games/quest; do
		printf "#!/bin/sh\necho %s\n" "$p" >menu/usr/$p &&
		chmod 755 menu/usr/$p || return 1
	done &&
	printf "%s\n" "[Desktop Entry]" "Type=Application" "Name=Quest" \
		"Exec=quest -mx11" "TryExec=quest" >menu/usr/share/applications/quest.desktop &&
	printf "%s\n" "[Desktop Entry]" "Type=Application" "Name=Tools" \
		"Exec=tool --admin" "TryExec=admin" >menu/usr/share/applications/tools.desktop &&
	extras-rewrite --app foo menu >menu.out 2>&1 &&
	d=menu/usr/share/applications &&
	grep_q "^Exec=$ABSNS/games/quest -mx11\$" $d/extras-quest.desktop &&
	grep_q "^TryExec=$ABSNS/games/quest\$" $d/extras-quest.desktop &&
	grep_q "^Exec=$ABSNS/bin/tool --admin\$" $d/extras-tools.desktop &&
	grep_q "^TryExec=$ABSNS/sbin/admin\$" $d/extras-tools.desktop
'

test_expect_success 'a RUNPATH is written into the file when it has one name, into a copy when it has another' '
	mkdir -p inplace/usr/bin inplace/usr/lib/foo elsewhere &&
	cc -shared -fPIC -o inplace/usr/lib/foo/libbar.so bar.c &&
	for p in alone linked; do
		cc -o inplace/usr/bin/$p prog.c -Linplace/usr/lib/foo -lbar \
			-Wl,-rpath,/usr/lib/foo -Wl,--enable-new-dtags || return 1
	done &&
	touch -d "2001-02-03 04:05:06" inplace/usr/bin/alone &&
	ln inplace/usr/bin/linked elsewhere/linked &&
	cp inplace/usr/bin/linked linked.orig &&
	ino=$(stat -c %i inplace/usr/bin/alone) &&
	extras-rewrite --app foo inplace >inplace.out 2>&1 &&
	! grep -q "by patchelf" inplace.out &&
	for p in alone linked; do
		test "$(patchelf --print-rpath inplace/$NS/bin/$p)" = "\$ORIGIN/../lib/foo" || return 1
	done &&
	test "$(stat -c %i inplace/$NS/bin/alone)" = "$ino" &&
	test "$(stat -c %Y inplace/$NS/bin/alone)" = "$(date -d "2001-02-03 04:05:06" +%s)" &&
	cmp elsewhere/linked linked.orig &&
	test "$(stat -c %h elsewhere/linked)" = 1
'

# dlopen() looks in LD_LIBRARY_PATH first: there, a libarchive.so.13 that
# is no library.  The data cannot be searched, and the report says why.
test_expect_success 'compressed data that cannot be searched is reported with the reason' '
	mkdir -p badlib nolib/usr/share/foo && : >badlib/libarchive.so.13 &&
	cp tree/$NS/share/foo/notes.xz nolib/usr/share/foo/ &&
	expect_status 1 env LD_LIBRARY_PATH="$PWD/badlib" \
		extras-rewrite --app foo nolib 2>nolib.err &&
	grep_q "$ABSNS/share/foo/notes.xz: .*compressed data, which cannot be searched: cannot load libarchive.so.13: " nolib.err
'

# A file of 16 MiB or more is mapped rather than read: it is searched and
# patched as any other, a reference past the first 16 MiB too.
test_expect_success 'a file of 16 MiB or more is searched and patched as any' '
	mkdir -p big/usr/bin big/usr/lib/foo big/usr/share/foo &&
	cc -shared -fPIC -o big/usr/lib/foo/libbar.so bar.c &&
	cat >bigprog.c <<-\EOS &&
	#include <stdio.h>
	const char *bar(void);
	static const char big[17 << 20] = { 1 };
	int main(void) {
		puts(bar());
		printf("%d /usr/share/foo/data.txt\n", big[0]);
		return 0;
	}
	EOS
	cc -o big/usr/bin/bigprog bigprog.c -Lbig/usr/lib/foo -lbar \
		-Wl,-rpath,/usr/lib/foo -Wl,--enable-new-dtags &&
	test "$(stat -c %s big/usr/bin/bigprog)" -gt $((16 << 20)) &&
	yes "a line of text" | head -n 1200000 >big/usr/share/foo/big.txt &&
	echo "data=/usr/share/foo/data.txt" >>big/usr/share/foo/big.txt &&
	head -c $((17 << 20)) /dev/zero >big/usr/share/foo/zeros.bin &&
	cp big/usr/share/foo/zeros.bin zeros.orig &&
	ino=$(stat -c %i big/usr/bin/bigprog) &&
	expect_status 1 extras-rewrite --app foo big >big.out 2>&1 &&
	test "$(grep -c ": error: " big.out)" = 1 &&
	grep_q "error: $ABSNS/bin/bigprog: offset [0-9]*: ./usr/share/foo.: the new path is 22 bytes longer" big.out &&
	test "$(patchelf --print-rpath big/$NS/bin/bigprog)" = "\$ORIGIN/../lib/foo" &&
	test "$(stat -c %i big/$NS/bin/bigprog)" = "$ino" &&
	env -u LD_LIBRARY_PATH big/$NS/bin/bigprog >out &&
	head -n1 out >first && echo "private library" >expect && cmp first expect &&
	test "$(tail -n 1 big/$NS/share/foo/big.txt)" = "data=$ABSNS/share/foo/data.txt" &&
	test "$(grep -c "^a line of text\$" big/$NS/share/foo/big.txt)" = 1200000 &&
	cmp big/$NS/share/foo/zeros.bin zeros.orig
'

# A file is searched through a chunk of 1 MiB; one that fits in it is
# patched from there, a larger one is read again whole: the edges of the
# chunk patch as any other place.
test_expect_success 'a reference at the edges of the 1 MiB chunk is patched' '
	mkdir -p edge/usr/share/foo &&
	ref="data=/usr/share/foo/data.txt" &&
	for size in $((1 << 20)) $(((1 << 20) + 1)) $((3 << 20)); do
		{ head -c $((size - ${#ref} - 2)) /dev/zero | tr "\\0" x &&
		  printf "\\n%s\\n" "$ref"; } >edge/usr/share/foo/$size.txt &&
		test "$(stat -c %s edge/usr/share/foo/$size.txt)" = $size ||
		return 1
	done &&
	extras-rewrite --app foo edge >edge.out 2>&1 &&
	for size in $((1 << 20)) $(((1 << 20) + 1)) $((3 << 20)); do
		test "$(tail -n 1 edge/$NS/share/foo/$size.txt)" = "data=$ABSNS/share/foo/data.txt" ||
		return 1
	done
'

test_done
