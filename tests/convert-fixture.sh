# convert-fixture.sh: a small source package with two binaries, written
# inline so the tests show everything they depend on.  Source it, then
# `make_fixture DIR [FORMAT]` (FORMAT: "3.0 (native)" by default); `write_dsc`
# writes an unsigned .dsc for source tarballs a test made.

make_fixture () {
	dir=$1
	format=${2:-3.0 (native)}
	case $format in
	*native*) version=1.0 ;;
	*) version=1.0-1 ;;
	esac &&
	mkdir -p "$dir/debian/source" "$dir/src" &&
	cat >"$dir/Makefile" <<'MAKE' &&
prefix ?= /usr/local
all: greet
greet: src/greet.c
	$(CC) $(CFLAGS) -DDATADIR='"$(prefix)/share/greet"' -o $@ src/greet.c
install: greet
	install -D -m 755 greet $(DESTDIR)$(prefix)/bin/greet
	install -D -m 644 src/greeting.txt $(DESTDIR)$(prefix)/share/greet/greeting.txt
clean:
	rm -f greet
MAKE
	cat >"$dir/src/greet.c" <<'C' &&
#include <stdio.h>
int main(void)
{
	char line[256];
	FILE *fp = fopen(DATADIR "/greeting.txt", "r");

	if (fp == NULL || fgets(line, sizeof(line), fp) == NULL)
		return 1;
	fputs(line, stdout);
	return 0;
}
C
	echo "Hello from greet." >"$dir/src/greeting.txt" &&
	cat >"$dir/debian/control" <<'CONTROL' &&
Source: greet
Section: misc
Priority: optional
Maintainer: Greet Author <author@example.org>
# The build needs nothing beyond debhelper.
Build-Depends:
 debhelper-compat (= 13),
Standards-Version: 4.6.2
Rules-Requires-Root: no

Package: greet
Architecture: any
Depends:
 greet-data (= ${source:Version}),
 ${misc:Depends},
 ${shlibs:Depends},
Suggests: greet-doc | fortune-mod
Conflicts: greet-classic
Description: greets the user
 A small program that prints a greeting.

Package: greet-data
Architecture: all
Depends: ${misc:Depends}
Breaks: greet (<< 1.0~)
Replaces: greet (<< 1.0~), greet-legacy
Description: greeting for greet
 The text greet prints.
CONTROL
	cat >"$dir/debian/changelog" <<CHANGELOG &&
greet ($version) unstable; urgency=medium

  * Initial release.

 -- Greet Author <author@example.org>  Mon, 05 Jan 2026 10:00:00 +0000
CHANGELOG
	cat >"$dir/debian/rules" <<'RULES' &&
#!/usr/bin/make -f
%:
	dh $@

override_dh_auto_build:
	dh_auto_build -- prefix=/usr

override_dh_auto_install:
	$(MAKE) install DESTDIR=$(CURDIR)/debian/tmp prefix=/usr

override_dh_installdocs:
	dh_installdocs -pgreet-data
	dh_installdocs --package=greet
	rm -f debian/greet/usr/share/doc/greet/README
RULES
	chmod 755 "$dir/debian/rules" &&
	printf '%s\n' "$format" >"$dir/debian/source/format" &&
	cat >"$dir/debian/copyright" <<'COPYRIGHT' &&
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Files: *
Copyright: 2026 Greet Author
License: GPL-3+
COPYRIGHT
	echo "usr/bin" >"$dir/debian/greet.install" &&
	echo "usr/share/greet" >"$dir/debian/greet-data.install" &&
	printf 'usr/share/greet\nvar/lib/greet\n' >"$dir/debian/greet-data.dirs" &&
	echo "usr/share/greet/greeting.txt usr/share/doc/greet-data/greeting.txt" \
		>"$dir/debian/greet-data.links" &&
	echo "README" >"$dir/debian/greet.docs" &&
	echo "README" >"$dir/README" &&
	echo "0 4 * * * root true" >"$dir/debian/greet.cron.d" &&
	cat >"$dir/debian/greet.postinst" <<'POSTINST'
#!/bin/sh
set -e

case "$1" in
    configure)
	update-alternatives --install /usr/bin/hi hi /usr/bin/greet 10
    ;;
esac

#DEBHELPER#

exit 0
POSTINST
}

# write_dsc NAME VERSION FORMAT FILE...: an unsigned .dsc listing FILEs.
write_dsc () {
	name=$1 version=$2 format=$3; shift 3 &&
	{
		echo "Format: $format" &&
		echo "Source: $name" &&
		echo "Binary: $name, $name-data" &&
		echo "Architecture: any all" &&
		echo "Version: $version" &&
		echo "Maintainer: Greet Author <author@example.org>" &&
		echo "Build-Depends: debhelper-compat (= 13)" &&
		echo "Package-List:" &&
		echo " $name deb misc optional arch=any" &&
		echo " $name-data deb misc optional arch=all" &&
		for sum in sha1 sha256; do
			[ $sum = sha1 ] && echo "Checksums-Sha1:" || echo "Checksums-Sha256:" &&
			for f; do
				echo " $(${sum}sum <"$f" | cut -d" " -f1) $(stat -c %s "$f") $f" || return 1
			done || return 1
		done &&
		echo "Files:" &&
		for f; do
			echo " $(md5sum <"$f" | cut -d" " -f1) $(stat -c %s "$f") $f" || return 1
		done
	} >"${name}_$version.dsc"
}
