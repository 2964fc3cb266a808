# tests/review-lib.sh: a good extras package crafted from an inline tree,
# and the gate run on it broken one way (review-bad.t, review-works.t).

NS=opt/extras.ubuntu.com/demo
PROFILE=etc/apparmor.d/opt.extras.ubuntu.com.demo
TEMPLATES=$DH_EXTRAS_DATADIR/templates

# generated SCRIPT [PACKAGE]: the maintainer script SCRIPT dh-extras
# generates for PACKAGE (extras-demo) shipping the demo app's profile.
generated () {
	echo "app: demo" >"$TRASH/generated.yaml" &&
	extras-profile --app demo --script "$1" --package "${2:-extras-demo}" \
		"$TRASH/generated.yaml"
}

# good_tree DIR: the staged tree of a good package, extras-demo: an
# executable and data in the namespace, its documentation, its declared
# privileges, the profile they yield, the scripts that load it.
good_tree () {
	mkdir -p "$1/DEBIAN" "$1/$NS/bin" "$1/$NS/share/demo" \
		"$1/usr/share/doc/extras-demo" "$1/usr/share/applications" \
		"$1/etc/apparmor.d" &&
	printf '#!/bin/sh\necho demo\n' >"$1/$NS/bin/demo" &&
	chmod 755 "$1/$NS/bin/demo" &&
	echo data >"$1/$NS/share/demo/data.txt" &&
	echo "Copyright: nobody" >"$1/usr/share/doc/extras-demo/copyright" &&
	printf '[Desktop Entry]\nExec=/%s/bin/demo\n' "$NS" \
		>"$1/usr/share/applications/extras-demo.desktop" &&
	printf 'app: demo\nprivileges:\n  - network\n' >"$1/DEBIAN/extras.yaml" &&
	extras-profile --app demo --executable "/$NS/bin/demo" \
		"$1/DEBIAN/extras.yaml" >"$1/$PROFILE" &&
	cat >"$1/DEBIAN/control" <<-EOF &&
	Package: extras-demo
	Source: extras-demo
	Version: 1.0
	Architecture: all
	Maintainer: Demo Author <demo@example.org>
	Priority: optional
	Depends: apparmor (>= 3.0), libc6
	Description: a crafted extras package
	 One of the review gate's test packages.
	EOF
	echo "/$PROFILE" >"$1/DEBIAN/conffiles" &&
	for script in postinst postrm; do
		generated $script >"$1/DEBIAN/$script" &&
		chmod 755 "$1/DEBIAN/$script" || return 1
	done
}

# field TREE NAME VALUE: set (or, without VALUE, remove) a control field.
field () {
	sed -i "/^$2:/d" "$1/DEBIAN/control" &&
	if [ $# -gt 2 ]; then
		sed -i "1a$2: $3" "$1/DEBIAN/control"
	fi
}

# build TREE DEB: what dpkg-deb makes of TREE, unchecked; every file
# root's unless owners=keep.
build () {
	if [ "${owners:-}" = keep ]; then
		dpkg-deb --nocheck -Zgzip --build "$1" "$2" >/dev/null
	else
		dpkg-deb --root-owner-group --nocheck -Zgzip --build "$1" "$2" >/dev/null
	fi
}

# source_tree TREE DIR: a source tree DIR whose debian/control names the
# package of TREE, and whose debian/PKG/ is TREE.
source_tree () {
	pkg=$(sed -n 's/^Package: //p' "$1/DEBIAN/control") &&
	src=$(sed -n 's/^Source: //p' "$1/DEBIAN/control") &&
	pkg=${pkg:-extras-demo} &&
	rm -rf "$2" && mkdir -p "$2/debian" &&
	printf 'Source: %s\n\nPackage: %s\nArchitecture: all\n' \
		"${src:-$pkg}" "$pkg" >"$2/debian/control" &&
	cp -a "$1" "$2/debian/$pkg"
}

# refused CASE STATUS PATTERN [deb]: the package of case CASE (tree
# bad/CASE) is refused by extras-review with STATUS and a line matching
# PATTERN, and so by dh_extras_check unless only "deb" applies.
refused () {
	build "bad/$1" "bad/$1.deb" &&
	expect_status "$2" extras-review "bad/$1.deb" >"bad/$1.out" 2>&1 &&
	grep_q "$3" "bad/$1.out" &&
	if [ "${4:-}" != deb ]; then
		source_tree "bad/$1" "src/$1" &&
		(cd "src/$1" && expect_status "$2" dh_extras_check) >"src/$1.out" 2>&1 &&
		grep_q "$3" "src/$1.out"
	fi
}

# case NAME: a fresh good tree bad/NAME to break.
case_tree () {
	rm -rf "bad/$1" && good_tree "bad/$1" && echo "bad/$1"
}
