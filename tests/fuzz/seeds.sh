#!/bin/sh
# Collect seed inputs for the fuzz harnesses into DIR/NAME/, from the
# fixtures of tests/fixtures and what the system builds in a second (a
# small ELF program, small .debs); tests/fuzz/seeds/ holds the few seeds
# no fixture has.  A harness starts from these, then its own corpus.
#
#	seeds.sh DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures
out=${1:?usage: seeds.sh DIR}
rm -rf "$out"
for name in changelog changes clearsign compiled-names contents control \
    deb822 debfile declaration desktop-entry dsc identity launcher-line \
    maintscript module-launcher patch-elf \
    patch-text \
    relation rules \
    source-archive; do
	mkdir -p "$out/$name"
done

n=0
for f in "$fixtures"/*/debian/control; do
	n=$((n + 1))
	cp "$f" "$out/control/$n"
	cp "$f" "$out/deb822/$n"
	# Each relation field's value, folded lines and all.
	awk -v dir="$out/relation" -v n="$n" '
		/^[A-Za-z-]+:/ { keep = tolower($1) ~ /^(pre-)?depends:|^build-depends(-indep|-arch)?:|^(recommends|suggests|conflicts|breaks|replaces|provides):/;
			if (keep) { m++; sub(/^[^:]*: */, ""); print > (dir "/" n "-" m) }
			next }
		/^[ \t]/ && keep { print > (dir "/" n "-" m) ; next }
		{ keep = 0 }' "$f"
done
for f in "$fixtures"/*/debian/changelog; do
	n=$((n + 1))
	# The harness converts the source "hello".
	sed '1s/^[^ ]*/hello/' "$f" >"$out/changelog/$n"
done
# Programs with a "#!" line: what dh_extras_modules and
# dh_extras_launchers read.
for f in "$fixtures"/*/bin/* "$fixtures"/*/js/*-js "$fixtures"/*/scripts/* \
    "$fixtures"/chorus/chorus*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	cp "$f" "$out/module-launcher/$n"
	cp "$f" "$out/launcher-line/$n"
done
for f in "$fixtures"/*/debian/rules; do
	n=$((n + 1))
	# The harness's packages are foo, foo-data, foo.bar, libfoo+x1.
	sed 's/debian\/[a-z]*\//debian\/foo\//g' "$f" >"$out/rules/$n"
done
# A debian/rules without dh (wget's shape): where the helpers go.
n=$((n + 1))
printf '%s\n' 'build:' '	cd b && ../configure --prefix=/usr \' \
	'	  --sysconfdir=/etc' 'clean:' '	dh_clean' 'install:' '	dh_prep' \
	'binary-arch: install' '	dh_link -a' '	dh_installdeb -a' \
	'	dh_builddeb -a' >"$out/rules/$n"
for f in "$fixtures"/*/debian/*.install "$fixtures"/*/debian/*.links \
    "$fixtures"/*/data/*.desktop "$fixtures"/*/data/*.service \
    "$fixtures"/*/scripts/* "$fixtures"/*/*-config; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	sed 's,/usr/share/[a-z]*,/usr/share/foo,g; s,/usr/bin/[a-z]*,/usr/bin/foo,g' \
		"$f" >"$out/patch-text/$n"
done
# A .desktop file whose MimeType= claims what it may not (the last byte,
# 0, makes it a .desktop file to the harness).
n=$((n + 1))
printf '[Desktop Entry]\nExec=foo %%U\nMimeType=x-scheme-handler/IRC;text/plain;inode/directory\n\0' \
	>"$out/patch-text/$n"
# Exported entry points as the gate reads them: the fixtures' and ours.
for f in "$fixtures"/*/data/*.desktop "$fixtures"/*/data/*.service \
    "$here"/seeds/desktop-entry/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	cp "$f" "$out/desktop-entry/$n"
done
# An Info manual: an index cookie's NULs, a tag table whose offsets move.
printf '\037\nFile: a,  Node: Top\n/usr/share/foo/x\n\037\nFile: a,  Node: %s\n%b' \
	Index '\0\b[index\0\b]\n* /usr/bin/foo: Top.\n\037\nTag Table:\n' \
	>"$out/patch-text/info"
printf 'Node: Top\1770\nNode: Index\17736\nRef: A\17760\n\037\nEnd Tag Table\n' \
	>>"$out/patch-text/info"
for f in "$fixtures"/contents/*; do
	n=$((n + 1))
	head -n 40 "$f" >"$out/contents/$n"
	head -n 40 "$f" | gzip -n >"$out/contents/$n.gz"
done
cp "$here"/seeds/dsc/* "$here"/seeds/changes/* "$out/clearsign/"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A program with a RUNPATH and references to moved paths.
if command -v cc >/dev/null; then
	cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
int main(void) { puts("/usr/share/foo/data.txt"); puts("/usr/lib/foo"); return 0; }
PROG
	cc -Os -s -Wl,-rpath,/usr/lib/foo:/usr/lib/x86_64-linux-gnu/foo \
		-o "$out/patch-elf/prog" "$tmp/prog.c" 2>/dev/null || true
	cc -Os -s -Wl,--disable-new-dtags,-rpath,/usr/lib/foo \
		-o "$out/patch-elf/prog-rpath" "$tmp/prog.c" 2>/dev/null || true
	# The names the program holds whole and as a tail, then the program.
	if [ -f "$out/patch-elf/prog" ]; then
		{ printf 'foo\ndata.txt\nfoo/data.txt\n\n' &&
		  cat "$out/patch-elf/prog"; } >"$out/compiled-names/prog"
	fi
fi
# Small binary packages, one per compressor, with maintainer scripts.
if command -v dpkg-deb >/dev/null; then
	pkg=$tmp/pkg
	mkdir -p "$pkg/DEBIAN" "$pkg/opt/extras.ubuntu.com/foo/bin" \
		"$pkg/opt/extras.ubuntu.com/foo/etc"
	printf '%s\n' 'Package: extras-foo' 'Version: 1.0' 'Architecture: all' \
		'Maintainer: A <a@example.org>' 'Description: foo' ' foo.' \
		>"$pkg/DEBIAN/control"
	printf '#!/bin/sh\nset -e\n#DEBHELPER#\n' >"$pkg/DEBIAN/postinst"
	chmod 755 "$pkg/DEBIAN/postinst"
	echo /opt/extras.ubuntu.com/foo/etc/foo.conf >"$pkg/DEBIAN/conffiles"
	echo x=1 >"$pkg/opt/extras.ubuntu.com/foo/etc/foo.conf"
	printf '#!/bin/sh\n' >"$pkg/opt/extras.ubuntu.com/foo/bin/foo"
	ln -s foo "$pkg/opt/extras.ubuntu.com/foo/bin/foo-link"
	# A hard link, and a path over tar's 100 bytes: a GNU long name.
	ln "$pkg/opt/extras.ubuntu.com/foo/bin/foo" \
		"$pkg/opt/extras.ubuntu.com/foo/bin/foo-hard"
	long=$pkg/opt/extras.ubuntu.com/foo/share/a-directory-name-of-fifty-bytes-to-pass-one-hundred/x
	mkdir -p "$long" && : >"$long/file"
	for z in none gzip xz zstd; do
		dpkg-deb --root-owner-group -Z"$z" --build "$pkg" \
			"$out/debfile/foo-$z.deb" >/dev/null 2>&1 || true
	done
fi
# Source tarballs: the fixtures' debian/ directories, in each compression.
for d in "$fixtures"/*/debian; do
	n=$((n + 1))
	tar -C "$d/.." -cf "$tmp/debian.tar" debian
	cp "$tmp/debian.tar" "$out/source-archive/$n.tar"
	gzip -n <"$tmp/debian.tar" >"$out/source-archive/$n.tar.gz"
	xz <"$tmp/debian.tar" >"$out/source-archive/$n.tar.xz"
done

# Maintainer scripts: the harness's first byte picks converter (even) or
# gate (odd); the committed seeds are the converter's.
for f in "$here"/seeds/maintscript/*; do
	[ -f "$f" ] || continue
	{ printf 1; tail -c +2 "$f"; } >"$out/maintscript/gate-${f##*/}"
done
