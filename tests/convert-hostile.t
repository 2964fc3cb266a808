#!/bin/sh
# extras-convert on hostile .dsc uploads that aim at the converter itself:
# inputs big enough to find a quadratic step or a fixed-size buffer, and
# failures that must leave OUTDIR exactly as it was.  The inputs are made
# here; what is checked is the outcome, never a timing.
. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"

test_setup 'the fixture' make_fixture good "3.0 (quilt)"
test_setup 'its upstream tarball' tar -czf greet_1.0.orig.tar.gz --exclude=debian good

# upload: greet_1.0-1.dsc from the debian/ of the directory "up".
upload () {
	rm -f greet_1.0-1.dsc greet_1.0-1.debian.tar.xz &&
	tar -C up --sort=name -cJf greet_1.0-1.debian.tar.xz debian &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz
}
fresh () {
	rm -rf up && mkdir up && cp -a good/debian up/
}

# contents: what OUTDIR (out) holds, with sizes and times; nothing when
# there is no out.
contents () {
	if [ -e out ] || [ -L out ]; then
		find out | sort && ls -l --full-time out
	fi
}

# refused MESSAGE: exit 2, one line saying MESSAGE, OUTDIR as it was.
refused () {
	rm -f err before after &&
	contents >before &&
	expect_status 2 extras-convert -q -o out greet_1.0-1.dsc 2>err &&
	grep_q "^extras-convert: error: .*$1" err &&
	test "$(wc -l <err)" -eq 1 &&
	contents >after &&
	diff before after
}

test_expect_success 'a debian/rules of 1 MB converts, every late staged path relocated' '
	fresh &&
	printf "override_dh_fixperms:\n\tdh_fixperms\n" >>up/debian/rules &&
	seq 30000 | sed "s|.*|\tchmod 0644 debian/greet/usr/share/greet/x&|" >>up/debian/rules &&
	test $(stat -c %s up/debian/rules) -gt 1000000 &&
	upload && extras-convert -o out greet_1.0-1.dsc >report &&
	grep_q "^debian/rules:30[0-9][0-9][0-9]: .usr/share/greet/x29999. is .opt/extras.ubuntu.com/greet/share/greet/x29999. once dh_extras_relocate has run" report &&
	dpkg-source -x out/extras-greet_1.0-1.dsc x >/dev/null 2>&1 &&
	test $(grep -c "chmod 0644 debian/greet/opt/extras.ubuntu.com/greet/share/greet/x" x/debian/rules) -eq 30000 &&
	rm -rf out x
'

cat >relation.py <<'PY'
import sys
p = sys.argv[1]
many = ", ".join("greet-x%d" % i for i in range(12000))
t = open(p).read().replace("Suggests: greet-doc", "Suggests: %s, greet-doc" % many)
open(p, "w").write(t)
PY

test_expect_success 'a relation field of 128 KB converts' '
	fresh &&
	python3 relation.py up/debian/control &&
	test $(stat -c %s up/debian/control) -gt 131072 &&
	upload && extras-convert -q -o out greet_1.0-1.dsc &&
	dpkg-source -x out/extras-greet_1.0-1.dsc x >/dev/null 2>&1 &&
	grep_q "greet-x11999, greet-doc" x/debian/control &&
	rm -rf out x
'

# A debian tarball of many members, half of them hard links.
cat >links.py <<'PY'
import io, sys, tarfile
out, n, order = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with tarfile.open(out, "w:xz", format=tarfile.GNU_FORMAT) as t:
    for name in ["debian/control", "debian/changelog", "debian/rules"]:
        data = open("good/" + name, "rb").read()
        info = tarfile.TarInfo(name); info.size = len(data); info.mode = 0o755
        t.addfile(info, io.BytesIO(data))
    def link(i):
        info = tarfile.TarInfo("debian/m/l%d" % i)
        info.type = tarfile.LNKTYPE; info.linkname = "debian/m/f%d" % i
        t.addfile(info)
    for i in range(n):
        if order == "late" and i == n - 1:
            link(i)
        info = tarfile.TarInfo("debian/m/f%d" % i); info.size = 1
        t.addfile(info, io.BytesIO(b"x"))
        if order != "late" or i != n - 1:
            link(i)
PY

test_expect_success 'a debian tarball of 20,000 members, half hard links, converts' '
	python3 links.py greet_1.0-1.debian.tar.xz 10000 early &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	extras-convert -q -o out greet_1.0-1.dsc &&
	test $(tar -tJf out/extras-greet_1.0-1.debian.tar.xz | grep -c "^debian/m/.") -eq 20000 &&
	rm -rf out
'

test_expect_success 'refused: a hard link to a file that comes after it' '
	python3 links.py greet_1.0-1.debian.tar.xz 10000 late &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	refused "hard link .debian/m/l9999. points outside the tree or to no earlier file"
'

test_expect_success 'refused: 20,000 binary stanzas, with a message, no abort' '
	fresh &&
	seq 20000 | sed "s/.*/\nPackage: greet-b&\nArchitecture: all\nDescription: x\n y/" >>up/debian/control &&
	upload && refused "debian/control:[0-9][0-9]*: binary package 1001 of 20002: more than the 1000 an extras source may build$"
'

test_expect_success 'names too long for the patterns of debian/rules fail cleanly, OUTDIR as it was' '
	fresh && mkdir out && echo old >out/extras-greet_1.0.orig.tar.gz &&
	long=$(printf "%0190d" 0 | tr 0 b) &&
	seq 998 | sed "s/.*/\nPackage: greet-$long&\nArchitecture: all\nDescription: x\n y/" >>up/debian/control &&
	upload && refused "debian/control:[0-9]*: the names of the binary packages take more than 16384 bytes" &&
	test "$(cat out/extras-greet_1.0.orig.tar.gz)" = old && rm -rf out
'

test_expect_success 'a move that fails half-way puts back what OUTDIR had' '
	fresh && upload &&
	mkdir -p out/extras-greet_1.0-1.dsc && echo old >out/extras-greet_1.0.orig.tar.gz &&
	refused "out/extras-greet_1.0-1.dsc: exists and is not a regular file" &&
	test "$(cat out/extras-greet_1.0.orig.tar.gz)" = old &&
	rmdir out/extras-greet_1.0-1.dsc &&
	extras-convert -q -o out greet_1.0-1.dsc &&
	cmp greet_1.0.orig.tar.gz out/extras-greet_1.0.orig.tar.gz && rm -rf out
'

cat >longpath.py <<'PY'
import io, sys, tarfile
long = "debian/" + "/".join(["d" * 100] * 49) + "/evil"
with tarfile.open(sys.argv[1], "w:xz", format=tarfile.GNU_FORMAT) as t:
    for name in ["debian/control", long, long]:
        data = b"x" if name == long else open("good/" + name, "rb").read()
        info = tarfile.TarInfo(name); info.size = len(data)
        t.addfile(info, io.BytesIO(data))
PY

test_expect_success 'a 5,000-byte member name: the message is whole, elided in the middle' '
	python3 longpath.py greet_1.0-1.debian.tar.xz &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz &&
	refused "greet_1.0-1.debian.tar.xz: member .debian/d[d/]*\.\.\.[d/]*/evil. has a name longer than 4095 bytes; refused$"
'

test_expect_success 'debian/source/options in a 3.0 (quilt) upload: the converted source goes without it' '
	fresh && echo "compression = xz" >up/debian/source/options &&
	upload && rm -rf out &&
	extras-convert -o out greet_1.0-1.dsc >stdout &&
	grep_q "^debian/source/options: dropped: dpkg-source options steer only" stdout &&
	tar -tJf out/extras-greet_1.0-1.debian.tar.xz >members &&
	grep_q "^debian/source/format$" members && ! grep_q "^debian/source/options" members &&
	rm -r out stdout members
'

test_expect_success 'refused: Package: and package: in one stanza' '
	fresh && sed -i "s/^Package: greet-data$/&\npackage: evil/" up/debian/control &&
	upload && refused "debian/control:[0-9]*: field .package. repeats .Package. of line [0-9]* (field names are case-insensitive)$"
'

test_expect_success 'refused: a .dsc repeating a field in another case' '
	fresh && upload && sed -i "s/^Version: .*/&\nversion: 9.9/" greet_1.0-1.dsc &&
	refused "greet_1.0-1.dsc:[0-9]*: field .version. is repeated"
'

test_done
