# convert-big.sh: the four big inputs an uploader may aim at the
# converter's parsers, each made at a size asked for, so that a test and
# bench/convert.sh convert the same input at two sizes and compare.
# Source convert-fixture.sh first, then this; run in a scratch directory.
#
#   big_setup                  the fixture "good" and its upstream tarball
#   big_dsc INPUT SIZE         greet_1.0-1.dsc with INPUT made at SIZE:
#     relation SIZE            greet's Depends of about SIZE bytes
#     rules SIZE               a debian/rules of about SIZE bytes
#     control SIZE             a debian/control of about SIZE bytes
#     tarball SIZE             a debian tarball of SIZE members
#
# SIZE is in bytes (members for tarball).  A control file may have at most
# 4 MiB (CONVERT_FILE_MAX), so a "4 MiB" input is made 4 KiB under it.

big_setup () {
	make_fixture good "3.0 (quilt)" &&
	tar -czf greet_1.0.orig.tar.gz --exclude=debian good &&
	cat >big.py <<'PY'
import io, sys, tarfile
what, path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])

def grow(head, item):
    # head + item(0) + item(1) + ..., up to SIZE bytes in all.
    parts, n, i = [head], len(head), 0
    while True:
        s = item(i)
        if n + len(s) > size:
            break
        parts.append(s); n += len(s); i += 1
    return "".join(parts)

if what == "relation":
    # Every tenth relation names a package of the source, which the
    # converter renames; the others pass through as they are.
    t = open(path).read()
    size -= len(t.encode())
    field = grow("", lambda i: " greet-data (= ${source:Version}) | libfoo%d,\n" % i
                 if i % 10 == 0 else " libfoo%d (>= 1.%d),\n" % (i, i))
    open(path, "w").write(t.replace("\nDepends:\n", "\nDepends:\n" + field, 1))
elif what == "rules":
    # An override whose every line names a staged path the converter
    # relocates, as a rules file of a big package does.
    t = open(path).read()
    t = grow(t + "override_dh_fixperms:\n\tdh_fixperms\n",
             lambda i: "\tchmod 0644 debian/greet/usr/share/greet/x%d\n" % i)
    open(path, "w").write(t)
elif what == "control":
    # Binary stanzas of 4.5 KiB each (long descriptions), each depending on
    # the one before it: every relation renamed.
    desc = "".join(" line %d of a long description of this package.\n" % j
                   for j in range(90))
    t = open(path).read()
    t = grow(t, lambda i: "\nPackage: greet-b%d\nArchitecture: all\n"
             "Depends: greet-%s, ${misc:Depends}\nDescription: part %d\n%s"
             % (i, "data" if i == 0 else "b%d" % (i - 1), i, desc))
    open(path, "w").write(t)
elif what == "tarball":
    # SIZE members: the debian/ of the fixture, then files of one byte,
    # every second member a hard link to the file before it.
    with tarfile.open(path, "w:xz", format=tarfile.GNU_FORMAT) as t:
        names = ["debian/control", "debian/changelog", "debian/rules",
                 "debian/source/format"]
        for name in names:
            data = open("good/" + name, "rb").read()
            info = tarfile.TarInfo(name); info.size = len(data); info.mode = 0o755
            t.addfile(info, io.BytesIO(data))
        for i in range((size - len(names)) // 2):
            info = tarfile.TarInfo("debian/m/f%d" % i); info.size = 1
            t.addfile(info, io.BytesIO(b"x"))
            info = tarfile.TarInfo("debian/m/l%d" % i)
            info.type = tarfile.LNKTYPE; info.linkname = "debian/m/f%d" % i
            t.addfile(info)
PY
}

big_dsc () {
	rm -rf up greet_1.0-1.dsc greet_1.0-1.debian.tar.xz &&
	case $1 in
	tarball)
		python3 big.py tarball greet_1.0-1.debian.tar.xz "$2" ;;
	*)
		mkdir up && cp -a good/debian up/ &&
		case $1 in
		relation|control) python3 big.py "$1" up/debian/control "$2" ;;
		rules) python3 big.py rules up/debian/rules "$2" ;;
		esac &&
		tar -C up --sort=name -cJf greet_1.0-1.debian.tar.xz debian ;;
	esac &&
	write_dsc greet 1.0-1 "3.0 (quilt)" greet_1.0.orig.tar.gz greet_1.0-1.debian.tar.xz
}
