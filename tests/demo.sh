#!/bin/sh
# make demo: the main job of dh-extras, end to end, on a sample upload.
#
# An author's ordinary source package (tests/fixtures/greet with its
# extras- names taken off) is packed into a .dsc, converted by
# extras-convert as the store's server would, built by dpkg-buildpackage
# with the add-on as a build daemon would, and what came out is shown.
set -eu

: "${TOP:?run through make demo}"
work=$(mktemp -d "${TMPDIR:-/tmp}/dh-extras-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

say () { printf '\n== %s\n' "$*"; }

say "an ordinary upload: greet_1.0.dsc"
cp -a "$TOP/tests/fixtures/greet" greet-1.0
sed -i -e 's/extras-greet/greet/' -e '/dh-sequence-extras/s/, dh-sequence-extras//' \
	greet-1.0/debian/control greet-1.0/debian/changelog
dpkg-source -q -b greet-1.0 >/dev/null
rm -rf greet-1.0
ls greet_1.0*

say "extras-convert --privileges x11 -o converted greet_1.0.dsc"
mkdir converted
extras-convert --privileges x11 -o converted greet_1.0.dsc
ls converted

say "dpkg-buildpackage -us -uc -b (with the add-on)"
(cd converted && dpkg-source -q -x extras-greet_1.0.dsc extras-greet &&
	cd extras-greet && dpkg-buildpackage -us -uc -b -d) >build.log 2>&1 ||
	{ tail -n 40 build.log; exit 1; }
grep -E '^dh-extras:|^dh_extras_' build.log | sort -u

for deb in converted/*.deb; do
	say "$(basename "$deb")"
	dpkg-deb -f "$deb" Package Version Architecture Depends
	ns=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -n 's,^\./\(opt/extras\.ubuntu\.com/[^/]*\)/$,\1,p' | head -n1)
	echo "-- in the namespace /$ns:"
	dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -n "s,^\./$ns/\(.*[^/]\)\$,   \1,p"
	echo "-- exported:"
	dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v "^\./$ns" |
		grep -v '/$' | sed 's,^\./,   /,'
	profile=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep '^\./etc/apparmor\.d/[^/]*[^/]$' | head -n1 || true)
	if dpkg-deb --ctrl-tarfile "$deb" | tar -t 2>/dev/null | grep -q '^\./extras\.yaml$'; then
		echo "-- the declaration it travels with (DEBIAN/extras.yaml):"
		dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./extras.yaml | sed 's/^/   /'
	fi
	if [ -n "$profile" ]; then
		echo "-- its AppArmor profile ${profile#.} includes:"
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "$profile" |
			sed -n 's/^ *\(#include\|include\) *<\(abstractions\/[^>]*\)>.*/   \2/p' | sort -u
	fi
done
