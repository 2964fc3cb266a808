#!/bin/sh
# extras-convert on a .dsc: the new source package, its reproducibility,
# and the hostile-upload corpus, each refused with nothing left behind.
. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"

# The hostile tarballs, written member by member with Python's tarfile.
cat >evil.py <<'PY'
import io, sys, tarfile
out, case = sys.argv[1], sys.argv[2]
def add(t, name, data=b"x", **kw):
    info = tarfile.TarInfo(name)
    for k, v in kw.items():
        setattr(info, k, v)
    if info.type == tarfile.REGTYPE:
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    else:
        t.addfile(info)
with tarfile.open(out, "w:xz", format=tarfile.GNU_FORMAT) as t:
    add(t, "debian/control", open("good/debian/control", "rb").read())
    if case == "absolute":
        add(t, "/tmp/evil")
    elif case == "dotdot":
        add(t, "debian/../../evil")
    elif case == "symlink":
        add(t, "debian/evil", type=tarfile.SYMTYPE, linkname="/etc/passwd")
    elif case == "symlink-up":
        add(t, "debian/evil", type=tarfile.SYMTYPE, linkname="../../etc")
    elif case == "hardlink":
        add(t, "debian/evil", type=tarfile.LNKTYPE, linkname="/etc/shadow")
    elif case == "hardlink-later":
        add(t, "debian/evil", type=tarfile.LNKTYPE, linkname="debian/later")
        add(t, "debian/later")
    elif case == "hardlinks":
        for i in range(3000):
            add(t, "debian/many/f%d" % i)
        for i in range(3000):
            add(t, "debian/many/h%d" % i, type=tarfile.LNKTYPE,
                linkname="debian/many/f%d" % (2999 - i))
        add(t, "debian/many/bad", type=tarfile.LNKTYPE,
            linkname="debian/many/none")
    elif case == "long-name":
        add(t, "debian/" + "/".join(["d" * 200] * 25) + "/f")
    elif case == "deep":
        add(t, "debian/" + "d/" * 300 + "f")
    elif case == "through-link":
        add(t, "debian/dir", type=tarfile.SYMTYPE, linkname=".")
        add(t, "debian/dir/evil")
    elif case == "device":
        add(t, "debian/evil", type=tarfile.CHRTYPE, devmajor=1, devminor=3)
    elif case == "fifo":
        add(t, "debian/evil", type=tarfile.FIFOTYPE)
    elif case == "duplicate":
        add(t, "debian/control", b"Source: evil\n")
    elif case == "outside":
        add(t, "src/evil.c")
    elif case == "dir-then-file":
        add(t, "debian/x", type=tarfile.DIRTYPE)
        add(t, "debian/x")
    elif case == "file-then-link":
        add(t, "debian/x")
        add(t, "debian/x", type=tarfile.SYMTYPE, linkname="control")
    elif case == "link-then-file":
        add(t, "debian/x", type=tarfile.SYMTYPE, linkname="control")
        add(t, "debian/x")
    elif case == "file-then-hardlink":
        add(t, "debian/x")
        add(t, "debian/x", type=tarfile.LNKTYPE, linkname="debian/control")
    elif case == "file-on-made-dir":
        add(t, "debian/m/f")
        add(t, "debian/m", b"a file where debian/m/ was made")
    if case.startswith("below"):
        # The rest of the fixture, then members below debian/'s own
        # directories, which the converter holds rather than unpacks.
        for name in ("changelog", "rules", "source/format"):
            add(t, "debian/" + name, open("good/debian/" + name, "rb").read(),
                mode=0o755)
        add(t, "debian/patches/series", b"fix.patch\n")
        add(t, "debian/m/n/o/p", b"deep", mode=0o700)
        add(t, "debian/m/s", type=tarfile.SYMTYPE, linkname="n/o/p")
        add(t, "debian/m/empty", type=tarfile.DIRTYPE)
        add(t, "debian/m/f", b"first")
        add(t, "debian/m/l", type=tarfile.LNKTYPE, linkname="debian/m/f")
        add(t, "debian/m/f", b"second")
    if case == "below-linked":
        # Hard links between debian/m/ and debian/ itself.
        add(t, "debian/m/c", type=tarfile.LNKTYPE, linkname="debian/control")
        add(t, "debian/greet.docs", type=tarfile.LNKTYPE,
            linkname="debian/m/n/o/p")
PY

# A bomb: headers claiming more than the limits, nothing behind them.
cat >bomb.py <<'PY'
import sys, tarfile, lzma
out, each, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with lzma.open(out, "wb") as f:
    for i in range(count):
        info = tarfile.TarInfo("debian/zeros%d" % i)
        info.size = each
        f.write(info.tobuf(format=tarfile.GNU_FORMAT))
        f.write(b"\0" * 512)
PY

test_expect_success 'a 3.0 (quilt) source package is converted' '
	make_fixture good "3.0 (quilt)" &&
	mkdir src && cp -a good src/greet-1.0 &&
	tar -C src --exclude=greet-1.0/debian -czf src/greet_1.0.orig.tar.gz greet-1.0 &&
	(cd src && dpkg-source -b greet-1.0 >/dev/null 2>&1) &&
	extras-convert --privileges x11 -o out src/greet_1.0-1.dsc >log &&
	grep_q "extras-greet 1.0-1 converted" log &&
	ls out >actual &&
	printf "%s\n" extras-greet_1.0-1.debian.tar.xz extras-greet_1.0-1.dsc \
		extras-greet_1.0.orig.tar.gz >expect &&
	diff -u expect actual
'

test_expect_success 'the upstream tarball is reused byte for byte' '
	cmp src/greet_1.0.orig.tar.gz out/extras-greet_1.0.orig.tar.gz
'

test_expect_success 'the new .dsc is unsigned, renamed and lists its files' '
	grep_q "^Source: extras-greet$" out/extras-greet_1.0-1.dsc &&
	grep_q "^Binary: extras-greet, extras-greet-data$" out/extras-greet_1.0-1.dsc &&
	grep_q "^Build-Depends: debhelper-compat (= 13), dh-sequence-extras$" out/extras-greet_1.0-1.dsc &&
	grep_q "^ extras-greet-data deb misc optional arch=all$" out/extras-greet_1.0-1.dsc &&
	! grep -q "BEGIN PGP" out/extras-greet_1.0-1.dsc
'

test_expect_success 'dpkg-source -x accepts it, and it equals the in-place conversion' '
	dpkg-source -x out/extras-greet_1.0-1.dsc from-dsc >/dev/null 2>&1 &&
	dpkg-source -x src/greet_1.0-1.dsc in-place >/dev/null 2>&1 &&
	extras-convert -q --privileges x11 in-place &&
	diff -r in-place from-dsc
'

test_expect_success 'the same input gives byte-identical output' '
	sleep 1 &&
	extras-convert -q --privileges x11 -o out2 src/greet_1.0-1.dsc &&
	for f in out/*; do cmp "$f" "out2/${f#out/}" || exit 1; done &&
	tar -tvJf out/extras-greet_1.0-1.debian.tar.xz >members &&
	! grep -v " 0/0 .* 2026-01-05 10:00 debian" members &&
	sort -c -k6 members
'

test_expect_success 'converting the converted .dsc again gives it back, byte for byte' '
	extras-convert --privileges x11 -o again out/extras-greet_1.0-1.dsc >log &&
	grep_q "^extras-convert: extras-greet 1.0-1 is already an extras package: nothing changed$" log &&
	ls again >actual && ls out >expect && diff -u expect actual &&
	for f in out/*; do cmp "$f" "again/${f#out/}" || exit 1; done &&
	dpkg-source -x again/extras-greet_1.0-1.dsc from-again >/dev/null 2>&1
'

test_expect_success 'a 3.0 (native) source package is converted' '
	make_fixture native &&
	dpkg-source -b native >/dev/null 2>&1 &&
	extras-convert -q -o nout greet_1.0.dsc &&
	ls nout >actual &&
	printf "%s\n" extras-greet_1.0.dsc extras-greet_1.0.tar.xz >expect &&
	diff -u expect actual &&
	dpkg-source -x nout/extras-greet_1.0.dsc nfrom >/dev/null 2>&1 &&
	cp -a native nin && extras-convert -q nin &&
	diff -r nin nfrom
'

# In a directory of its own: an orig tarball the tests before left would
# make it a non-native 1.0 package.
test_expect_success 'a 1.0 native source package is converted' '
	mkdir native-1.0 && cd native-1.0 &&
	make_fixture greet-1.0 "1.0" &&
	sed -i "1s/(1.0-1)/(1.0)/" greet-1.0/debian/changelog &&
	dpkg-source -b greet-1.0 >/dev/null 2>&1 &&
	extras-convert -q -o oout greet_1.0.dsc &&
	ls oout >actual &&
	printf "%s\n" extras-greet_1.0.dsc extras-greet_1.0.tar.gz >expect &&
	diff -u expect actual &&
	dpkg-source -x oout/extras-greet_1.0.dsc ofrom >/dev/null 2>&1 &&
	extras-convert -q greet-1.0 && diff -r greet-1.0 ofrom &&
	extras-convert -q -o oout2 greet_1.0.dsc &&
	cmp oout/extras-greet_1.0.dsc oout2/extras-greet_1.0.dsc
'

test_expect_success 'an autoconf upstream tarball: debian/rules running ./configure gets dh_auto_configure, as in place' '
	make_fixture ac "3.0 (quilt)" &&
	echo "AC_INIT([greet], [1.0])" >ac/configure.ac &&
	printf "%s\n" "#!/usr/bin/make -f" "%:" "	dh \$@" "" \
		"override_dh_auto_configure:" "	./configure --with-x" >ac/debian/rules &&
	mkdir acsrc && cp -a ac acsrc/greet-1.0 &&
	tar -C acsrc --exclude=greet-1.0/debian -czf acsrc/greet_1.0.orig.tar.gz greet-1.0 &&
	(cd acsrc && dpkg-source -b greet-1.0 >/dev/null 2>&1) &&
	extras-convert -o acout acsrc/greet_1.0-1.dsc >aclog &&
	grep_q "^debian/rules:6: .\./configure. written as .dh_auto_configure --." aclog &&
	dpkg-source -x acout/extras-greet_1.0-1.dsc acfrom >/dev/null 2>&1 &&
	grep_q "^	dh_auto_configure -- --with-x\$" acfrom/debian/rules &&
	dpkg-source -x acsrc/greet_1.0-1.dsc acin >/dev/null 2>&1 &&
	extras-convert -q acin && diff -r acin acfrom
'

# pv: an upstream signature beside a tarball with no autoconf input; the
# signature is copied, never read as a tarball.
test_expect_success 'an upstream signature (.orig.tar.bz2.asc) is carried over as it is' '
	make_fixture sig "3.0 (quilt)" &&
	mkdir sigsrc && cp -a sig sigsrc/greet-1.0 &&
	tar -C sigsrc --exclude=greet-1.0/debian -cjf sigsrc/greet_1.0.orig.tar.bz2 greet-1.0 &&
	printf "%s\n" "-----BEGIN PGP SIGNATURE-----" "x" "-----END PGP SIGNATURE-----" \
		>sigsrc/greet_1.0.orig.tar.bz2.asc &&
	(cd sigsrc && dpkg-source -b greet-1.0 >/dev/null 2>&1) &&
	grep_q "greet_1.0.orig.tar.bz2.asc\$" sigsrc/greet_1.0-1.dsc &&
	extras-convert -q -o sigout sigsrc/greet_1.0-1.dsc &&
	cmp sigsrc/greet_1.0.orig.tar.bz2.asc sigout/extras-greet_1.0.orig.tar.bz2.asc &&
	grep_q " extras-greet_1.0.orig.tar.bz2.asc\$" sigout/extras-greet_1.0-1.dsc &&
	dpkg-source -x sigout/extras-greet_1.0-1.dsc sigfrom >/dev/null 2>&1 &&
	test -f sigfrom/debian/extras.yaml
'

test_expect_success 'a name in OUTDIR that cannot be replaced: nothing is moved' '
	mkdir -p busy/extras-greet_1.0-1.dsc &&
	find busy | sort >before &&
	expect_status 2 extras-convert -q -o busy src/greet_1.0-1.dsc 2>err &&
	grep_q "busy/extras-greet_1.0-1.dsc: exists and is not a regular file" err &&
	find busy | sort >after &&
	diff before after
'

# hostile CASE MESSAGE [DSC]: refused with MESSAGE, OUTDIR never created,
# nothing new anywhere in the trash directory.
hostile () {
	: >err && : >before && : >after &&
	find "$TRASH" | sort >before &&
	expect_status 2 extras-convert -o "$TRASH/hostile-out" "${3:-greet_1.0-1.dsc}" 2>err &&
	grep_q "^extras-convert: error: .*$2" err &&
	test "$(wc -l <err)" -eq 1 &&
	test ! -e "$TRASH/hostile-out" &&
	find "$TRASH" | sort >after &&
	diff before after
}

# A quilt upload whose debian tarball is the hostile CASE.
evil_upload () {
	rm -f greet_1.0-1.dsc greet_1.0-1.debian.tar.xz &&
	cp ../src/greet_1.0.orig.tar.gz . &&
	python3 evil.py greet_1.0-1.debian.tar.xz "$1" &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz
}

# The corpus lives in its own directory, so that "nothing new" is easy to see.
mkdir -p "$TRASH/h" && cp -a good evil.py bomb.py "$TRASH/h/" &&
cp src/greet_1.0.orig.tar.gz "$TRASH/h/" && cd "$TRASH/h" || exit 1

test_expect_success 'refused: an absolute member name' '
	evil_upload absolute && hostile absolute "member ./tmp/evil. has an absolute name"
'
test_expect_success 'refused: a member with ..' '
	evil_upload dotdot && hostile dotdot "member .debian/\\.\\./\\.\\./evil. has a .\\.\\.. component"
'
test_expect_success 'refused: a symbolic link to an absolute path' '
	evil_upload symlink && hostile symlink "symbolic link .debian/evil. points outside the tree"
'
test_expect_success 'refused: a symbolic link climbing out' '
	evil_upload symlink-up && hostile symlink-up "symbolic link .debian/evil. points outside the tree"
'
test_expect_success 'refused: a hard link outside' '
	evil_upload hardlink && hostile hardlink "hard link .debian/evil. points outside"
'
test_expect_success 'refused: a hard link to a file that comes later' '
	evil_upload hardlink-later && hostile hardlink-later "hard link .debian/evil. points outside the tree or to no earlier file"
'
test_expect_success 'refused: one bad hard link among thousands of good ones' '
	evil_upload hardlinks && hostile hardlinks "hard link .debian/many/bad. points outside the tree or to no earlier file (.debian/many/none.)"
'
# dpkg-source options (here "tar-ignore = *") would steer dpkg-source -b
# and the build daemon's dpkg-source --before-build: the converted source
# goes without them.
for case in options local-options; do
	test_expect_success "debian/source/$case in a 3.0 (quilt) upload is dropped from the converted source" "
		rm -rf up && mkdir up && cp -a good/debian up/ &&
		echo 'tar-ignore = *' >up/debian/source/$case &&
		rm -f greet_1.0-1.dsc greet_1.0-1.debian.tar.xz &&
		tar -C up -cJf greet_1.0-1.debian.tar.xz debian &&
		write_dsc greet 1.0-1 '3.0 (quilt)' greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
		extras-convert -o \"\$TRASH/opt-out\" greet_1.0-1.dsc >opt.log 2>&1 &&
		grep_q '^debian/source/$case: dropped: dpkg-source options steer only' opt.log &&
		tar -tJf \"\$TRASH\"/opt-out/extras-greet_1.0-1.debian.tar.xz >members &&
		grep_q '^debian/control\$' members && ! grep_q '^debian/source/$case' members &&
		rm -r \"\$TRASH/opt-out\" opt.log members up
	"
done
test_expect_success 'refused: a 5,000-byte member name, the message elided but whole' '
	evil_upload long-name &&
	hostile long-name "member .debian/[d/]*\.\.\.[d/]*/f. has a name longer than 4095 bytes; refused$"
'
test_expect_success 'refused: a member 300 directories deep' '
	evil_upload deep && hostile deep "member .debian/d/d/.* lies more than 256 directories deep; refused$"
'
test_expect_success 'refused: a member reached through a symbolic link' '
	evil_upload through-link && hostile through-link "member .debian/dir/evil. is reached through the symbolic link"
'
test_expect_success 'refused: a device node' '
	evil_upload device && hostile device "member .debian/evil. is a device node, FIFO or socket"
'
test_expect_success 'refused: a FIFO' '
	evil_upload fifo && hostile fifo "member .debian/evil. is a device node, FIFO or socket"
'
# tar and dpkg-source let a regular file listed again replace the one
# before (crate tarballs list Cargo.toml.orig twice): so does the converter.
test_expect_success 'a regular file listed twice is accepted, the last one wins' '
	rm -f greet_1.0-1.dsc greet_1.0-1.debian.tar.xz &&
	python3 -c "
import io, tarfile
def add(t, name, data):
    info = tarfile.TarInfo(name); info.size = len(data)
    t.addfile(info, io.BytesIO(data))
with tarfile.open(\"greet_1.0-1.debian.tar.xz\", \"w:xz\") as t:
    add(t, \"debian/rules\", b\"first\\n\")
    t.add(\"good/debian\", arcname=\"debian\")
" &&
	test "$(tar -tJf greet_1.0-1.debian.tar.xz | grep -c "^debian/rules\$")" = 2 &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	extras-convert -q -o "$TRASH/dupfile-out" greet_1.0-1.dsc &&
	tar -xJOf "$TRASH"/dupfile-out/extras-greet_1.0-1.debian.tar.xz debian/rules >rules.out &&
	grep_q "^%:" rules.out && ! grep_q "^first" rules.out &&
	test "$(tar -tJf "$TRASH"/dupfile-out/extras-greet_1.0-1.debian.tar.xz | grep -c "^debian/rules\$")" = 1 &&
	rm -r "$TRASH/dupfile-out" rules.out
'
test_expect_success 'an upstream tarball listing a file twice is accepted and copied as it is' '
	rm -rf dup-up greet_1.0-1.dsc greet_1.0-1.debian.tar.xz dup.orig.tar.gz &&
	mkdir dup-up && tar -C dup-up -xzf greet_1.0.orig.tar.gz &&
	top=$(ls dup-up) && echo first >dup-up/$top/README.dup &&
	tar -C dup-up -cf dup.orig.tar "$top" &&
	echo second >dup-up/$top/README.dup &&
	tar -C dup-up -rf dup.orig.tar "$top/README.dup" &&
	test "$(tar -tf dup.orig.tar | grep -c README.dup)" = 2 &&
	gzip -9n <dup.orig.tar >dup-up/greet_1.0.orig.tar.gz &&
	tar -C good -cJf greet_1.0-1.debian.tar.xz debian &&
	(cd dup-up && cp ../greet_1.0-1.debian.tar.xz . &&
	 write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz) &&
	extras-convert -q -o "$TRASH/dup-up-out" dup-up/greet_1.0-1.dsc &&
	cmp dup-up/greet_1.0.orig.tar.gz "$TRASH"/dup-up-out/extras-greet_1.0.orig.tar.gz &&
	dpkg-source -x "$TRASH"/dup-up-out/extras-greet_1.0-1.dsc dup-x >/dev/null 2>&1 &&
	test "$(cat dup-x/README.dup)" = second &&
	rm -r "$TRASH/dup-up-out" dup-up dup-x dup.orig.tar
'
test_expect_success 'refused: a regular file listed again as a symbolic link' '
	evil_upload file-then-link && hostile file-then-link "member .debian/x. is listed twice, not only as a regular file"
'
test_expect_success 'refused: a symbolic link listed again as a regular file' '
	evil_upload link-then-file && hostile link-then-file "member .debian/x. is listed twice, not only as a regular file"
'
test_expect_success 'refused: a regular file listed again as a hard link' '
	evil_upload file-then-hardlink && hostile file-then-hardlink "member .debian/x. is listed twice, not only as a regular file"
'
test_expect_success 'refused: a directory and a file at one path' '
	evil_upload dir-then-file && hostile dir-then-file "member .debian/x. is listed twice"
'
# mupdf's repacked upstream tarball lists a directory twice: tar makes it
# once, and nothing else is ambiguous.
test_expect_success 'a directory listed twice is accepted' '
	rm -f greet_1.0-1.dsc greet_1.0-1.debian.tar.xz &&
	python3 -c "
import sys, tarfile
with tarfile.open(\"greet_1.0-1.debian.tar.xz\", \"w:xz\") as t:
    t.add(\"good/debian\", arcname=\"debian\")
    t.add(\"good/debian/source\", arcname=\"debian/source\", recursive=False)
" &&
	test "$(tar -tJf greet_1.0-1.debian.tar.xz | grep -c "^debian/source/\$")" = 2 &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	extras-convert -q -o "$TRASH/dupdir-out" greet_1.0-1.dsc &&
	test -f "$TRASH"/dupdir-out/extras-greet_1.0-1.dsc &&
	rm -r "$TRASH/dupdir-out"
'
# The members below debian/'s own directories are not unpacked (they
# are held, then written back): the new tarball has them as unpacking
# them would have made them, a hard link to a file listed again the file
# it was made to.
test_expect_success 'members below debian/patches/ and debian/m/ come through as unpacked' '
	evil_upload below &&
	extras-convert -q -o "$TRASH/below-out" greet_1.0-1.dsc &&
	tar -tvJf "$TRASH"/below-out/extras-greet_1.0-1.debian.tar.xz >list &&
	grep_q "^drwxr-xr-x .* debian/m/\$" list &&
	grep_q "^drwxr-xr-x .* debian/m/empty/\$" list &&
	grep_q "^-rwxr-xr-x .* debian/m/n/o/p\$" list &&
	grep_q "^lrwxrwxrwx .* debian/m/s -> n/o/p\$" list &&
	grep_q "^-rw-r--r-- .* debian/patches/series\$" list &&
	rm -rf x && mkdir x &&
	tar -C x -xJf "$TRASH"/below-out/extras-greet_1.0-1.debian.tar.xz &&
	test "$(cat x/debian/m/f)" = second && test "$(cat x/debian/m/l)" = first &&
	test "$(cat x/debian/m/s)" = deep &&
	test "$(cat x/debian/patches/series)" = fix.patch &&
	grep_q dh-sequence-extras x/debian/control &&
	rm -r "$TRASH/below-out" list x
'
test_expect_success 'hard links between debian/ and below it: converted as unpacked whole' '
	evil_upload below-linked &&
	extras-convert -q -o "$TRASH/below-out" greet_1.0-1.dsc &&
	rm -rf x && mkdir x &&
	tar -C x -xJf "$TRASH"/below-out/extras-greet_1.0-1.debian.tar.xz &&
	cmp good/debian/control x/debian/m/c &&
	grep_q dh-sequence-extras x/debian/control &&
	test "$(cat x/debian/greet.docs)" = deep &&
	test "$(cat x/debian/m/l)" = first &&
	rm -r "$TRASH/below-out" x
'
test_expect_success 'refused: a file where the directory of a member before it was made' '
	evil_upload file-on-made-dir &&
	hostile file-on-made-dir "cannot extract .debian/m.: Could not unlink"
'
test_expect_success 'refused: a debian tarball reaching outside debian/' '
	evil_upload outside && hostile outside "member .src/evil.c. is outside debian/"
'
test_expect_success 'refused: a member over the size limit' '
	rm -f greet_1.0-1.debian.tar.xz &&
	python3 bomb.py greet_1.0-1.debian.tar.xz 600000000 1 &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	hostile member-size "member .debian/zeros0. is larger than"
'
test_expect_success 'refused: members adding up past the total limit' '
	rm -rf greet_1.0-1.debian.tar.xz debian &&
	mkdir debian && cp good/debian/control debian/ &&
	for i in 1 2 3 4 5; do truncate -s 500M debian/zeros$i || return 1; done &&
	tar --sparse -cJf greet_1.0-1.debian.tar.xz debian && rm -rf debian &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	hostile total-size "members add up to more than"
'
test_expect_success 'refused: a checksum mismatch, before any unpacking' '
	evil_upload absolute &&
	evil_upload none && echo >>greet_1.0-1.debian.tar.xz &&
	hostile checksum "greet_1.0-1.debian.tar.xz: size"
'
test_expect_success 'refused: a changed file of the same size' '
	evil_upload none &&
	printf "x" | dd of=greet_1.0.orig.tar.gz bs=1 seek=100 conv=notrunc 2>/dev/null &&
	hostile same-size "greet_1.0.orig.tar.gz: checksum does not match"
'
test_expect_success 'refused: a file name with a slash' '
	evil_upload none &&
	sed -i "s| greet_1.0.orig.tar.gz$| ../greet_1.0.orig.tar.gz|" greet_1.0-1.dsc &&
	hostile slash "file name .\\.\\./greet_1.0.orig.tar.gz. is not a plain file name"
'
test_expect_success 'refused: a missing file' '
	evil_upload none && rm greet_1.0.orig.tar.gz &&
	hostile missing "greet_1.0.orig.tar.gz: cannot open"
'
test_expect_success 'refused: a file missing from Checksums-Sha256' '
	evil_upload none &&
	sed -i "/^Checksums-Sha256:/,/^Files:/{/orig/d}" greet_1.0-1.dsc &&
	hostile nosha "has no Checksums-Sha256 line"
'
test_expect_success 'refused: a malformed .dsc' '
	evil_upload none &&
	printf "Format: 3.0 (quilt)\nSource greet\n" >greet_1.0-1.dsc &&
	hostile malformed "greet_1.0-1.dsc:2: field name .Source. must be followed by colon"
'
test_expect_success 'refused: a malformed signed .dsc' '
	evil_upload none &&
	printf -- "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\nFormat: 1.0\n" >greet_1.0-1.dsc &&
	hostile signed "malformed OpenPGP signed message"
'
test_expect_success 'refused: a stanza after the signature of a signed .dsc' '
	evil_upload none &&
	{ printf -- "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" &&
	  cat greet_1.0-1.dsc &&
	  printf -- "-----BEGIN PGP SIGNATURE-----\n\niQ==\n-----END PGP SIGNATURE-----\n" &&
	  printf "\nSource: evil\n"; } >signed.dsc && mv signed.dsc greet_1.0-1.dsc &&
	hostile after "greet_1.0-1.dsc:[0-9]*: malformed OpenPGP signed message: text after the signature"
'
test_expect_success 'refused: an unsupported format' '
	evil_upload none &&
	sed -i "s/^Format: .*/Format: 3.0 (git)/" greet_1.0-1.dsc &&
	hostile format "unsupported source format .3.0 (git)."
'
test_expect_success 'refused: a file of another source' '
	evil_upload none && cp greet_1.0.orig.tar.gz other_1.0.orig.tar.gz &&
	write_dsc greet 1.0-1 "3.0 (quilt)" other_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	hostile other "other_1.0.orig.tar.gz. is not a file of"
'
test_expect_success 'refused: a malformed control file inside the upload' '
	mkdir -p bad/debian && cp -a good/debian/. bad/debian/ &&
	sed -i "s/^Package: greet-data/Package: greet_data/" bad/debian/control &&
	tar -C bad -cJf greet_1.0-1.debian.tar.xz debian &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	hostile control "debian/control:22: invalid package name .greet_data."
'
test_expect_success 'refused: a malformed changelog inside the upload' '
	rm -rf bad && mkdir -p bad/debian && cp -a good/debian/. bad/debian/ &&
	sed -i "1s/.*/greet 1.0-1 unstable/" bad/debian/changelog &&
	tar -C bad -cJf greet_1.0-1.debian.tar.xz debian &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	hostile changelog "debian/changelog:1: malformed first line"
'
test_expect_success 'refused: a .dsc whose version the changelog contradicts' '
	rm -rf bad && mkdir -p bad/debian && cp -a good/debian/. bad/debian/ &&
	sed -i "1s/(1.0-1)/(1.0-2)/" bad/debian/changelog &&
	tar -C bad -cJf greet_1.0-1.debian.tar.xz debian &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	hostile version "is greet 1.0-1, but its debian/ says greet 1.0-2"
'

test_done
