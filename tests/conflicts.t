#!/bin/sh
# extras-conflicts against the default registry: a directory holding the
# claims (SQLite) and one Contents index file per archive.

. "$TOP/tests/lib.sh"
. "$TOP/tests/conflicts-lib.sh"

test_setup 'Contents files and packages' conflicts_fixtures
conflicts_story "$TRASH/db"
test_setup 'uploaders, keys and uploads' accept_fixtures
accept_story "$TRASH/db"
accept_done

test_expect_success 'index: every compression reads the same' '
	for z in gzip xz lz4 zstd bzip2 cat; do
		$z < Contents-main > c.$z &&
		extras-conflicts index --archive z-$z -d zdb c.$z > out &&
		grep_q "^z-$z: 5 paths indexed from 1 file(s), 2 line(s) ignored" out &&
		expect_status 1 extras-conflicts check -d zdb clash.deb > out &&
		grep_q "in archive z-$z" out || return 1
	done
'

test_expect_success 'index: the replaced index keeps a second name until the next index' '
	extras-conflicts index --archive again -d olddb Contents-main >/dev/null &&
	test ! -e olddb/contents/again.idx.old &&
	ino=$(stat -c %i olddb/contents/again.idx) &&
	extras-conflicts index --archive again -d olddb Contents-main >/dev/null &&
	test "$(stat -c %i olddb/contents/again.idx.old)" = "$ino" &&
	ino=$(stat -c %i olddb/contents/again.idx) &&
	extras-conflicts index --archive again -d olddb Contents-main >/dev/null &&
	test "$(stat -c %i olddb/contents/again.idx.old)" = "$ino" &&
	ls olddb/contents >list &&
	printf "again.idx\nagain.idx.old\n" >expect &&
	diff -u expect list
'

test_expect_success 'index: several files make one archive' '
	extras-conflicts index --archive both -d multi Contents-main \
		Contents-extra.gz > out &&
	grep_q "^both: 8 paths indexed from 2 file(s), 2 line(s) ignored" out
'

test_expect_success 'index: a last line without newline, CRLF, leading slash' '
	d=usr/share/doc &&
	printf "FILE LOCATION\r\n/$d/extras-crlf/x   utils/crlf\r\n./$d/extras-dot/x utils/dot\n$d/extras-last/x\tutils/last" \
		> odd &&
	extras-conflicts index --archive odd -d odd-db odd > out &&
	grep_q "^odd: 3 paths indexed from 1 file(s), 0 line(s) ignored$" out &&
	make_deb odd.deb extras-odd extras-odd $d/extras-crlf/x $d/extras-dot/x $d/extras-last/x &&
	expect_status 1 extras-conflicts check -d odd-db odd.deb > out &&
	test $(wc -l < out) = 3
'

# A check starts a process per upload: it loads the decompression
# library its members need when it needs it, no other.
test_expect_success 'check: an xz .deb loads liblzma, an uncompressed one no decompressor' '
	mkdir -p znone/DEBIAN &&
	printf "Package: extras-znone\nVersion: 1\nArchitecture: all\nMaintainer: M <m@example.org>\nDescription: d\n" \
		> znone/DEBIAN/control &&
	dpkg-deb --root-owner-group -Zxz --build znone zxz.deb >/dev/null &&
	dpkg-deb --root-owner-group -Znone --build znone znone.deb >/dev/null &&
	LD_DEBUG=files extras-conflicts check -d db zxz.deb 2>ld >/dev/null &&
	grep "dynamically loaded" ld | sed -n "s/.*file=\([^ ]*\) .*/\1/p" > loaded &&
	echo liblzma.so.5 > expect &&
	diff -u expect loaded &&
	LD_DEBUG=files extras-conflicts check -d db znone.deb 2>ld >/dev/null &&
	! grep "dynamically loaded" ld &&
	! grep -E "file=lib(z|lzma|zstd|bz2|lz4)\." ld
'

# dlopen() looks in LD_LIBRARY_PATH first: there, a libzstd.so.1 that is
# no library.
test_expect_success 'check: a decompression library that cannot be loaded is bad input, named' '
	mkdir -p badlib && : > badlib/libzstd.so.1 &&
	dpkg-deb --root-owner-group -Zzstd --build znone zzst.deb >/dev/null &&
	expect_status 2 env LD_LIBRARY_PATH="$PWD/badlib" \
		extras-conflicts check -d db zzst.deb 2>err &&
	grep_q "^extras-conflicts: error: zzst.deb: control.tar.zst: cannot load libzstd.so.1: " err &&
	extras-conflicts check -d db zzst.deb
'

# The first connection to a WAL database reads all of the WAL, and every
# check is a first connection: writes leave it empty.
test_expect_success 'registry: index, claim and uploader add leave the WAL empty' '
	extras-conflicts index --archive main -d waldb Contents-main >/dev/null &&
	test -e waldb/claims.sqlite-wal && test ! -s waldb/claims.sqlite-wal &&
	extras-conflicts claim -d waldb --owner alice foo.deb >/dev/null &&
	test ! -s waldb/claims.sqlite-wal &&
	extras-conflicts uploader add -d waldb --fingerprint $(printf "%040d" 7) Walter >/dev/null &&
	test ! -s waldb/claims.sqlite-wal &&
	extras-conflicts list -d waldb > out &&
	grep_q "alice" out
'

# A reader of frames in the WAL keeps the checkpoint from truncating it
# (here a writer that did not checkpoint left them): the write still
# succeeds, and the next write empties it.
test_expect_success 'registry: a write while a check reads succeeds, the WAL emptied later' '
	mkfifo hold.in hold.out &&
	{ python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute(\"INSERT INTO uploaders VALUES (\x27F00D\x27, \x27Vera\x27, \x27now\x27)\")
c.execute(\"BEGIN\")
c.execute(\"SELECT count(*) FROM apps\").fetchall()
print(\"reading\", flush=True)
sys.stdin.read()
" waldb/claims.sqlite < hold.in > hold.out & } &&
	exec 8> hold.in &&
	read state < hold.out && test "$state" = reading &&
	extras-conflicts uploader add -d waldb --fingerprint $(printf "%040d" 8) Wendy >/dev/null &&
	test -s waldb/claims.sqlite-wal &&
	exec 8>&- && wait &&
	extras-conflicts uploader add -d waldb --fingerprint $(printf "%040d" 9) Wilma >/dev/null &&
	test ! -s waldb/claims.sqlite-wal &&
	extras-conflicts uploader list -d waldb > out &&
	grep_q Wendy out && grep_q Wilma out
'

test_expect_success 'check: a damaged index is bad input' '
	mkdir -p broken/contents &&
	head -c 100 db/contents/main.idx > broken/contents/main.idx &&
	expect_status 2 extras-conflicts check -d broken foo.deb 2>err &&
	grep_q "main.idx: not a Contents index" err
'

test_expect_success 'check: a missing registry is bad input' '
	expect_status 2 extras-conflicts check -d nowhere foo.deb 2>err &&
	grep_q "nowhere: no such registry" err
'

test_done
