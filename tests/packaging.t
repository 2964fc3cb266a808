#!/bin/sh
# The dh-extras binary package's relations, as debian/control states
# them: what it needs at run time, and nothing only a build needs.
. "$TOP/tests/lib.sh"

# depends: the dh-extras stanza's Depends, one relation a line.
depends () {
	perl -MDpkg::Control::Info -e '
		my $c = Dpkg::Control::Info->new($ARGV[0]);
		print map { s/^\s+|\s+$//gr . "\n" }
		      split /,/, $c->get_pkg_by_name("dh-extras")->{Depends};
	' "$TOP/debian/control" | sed "/^\$/d"
}

test_expect_success 'dh-extras depends on no -dev package' '
	depends >depends &&
	grep_q "^zlib1g\$" depends &&
	{ ! grep -E "^[a-z0-9.+-]+-dev( |\$)" depends || false; }
'

# relations FIELD: the dh-extras stanza's FIELD, one relation a line.
relations () {
	perl -MDpkg::Control::Info -e '
		my $c = Dpkg::Control::Info->new($ARGV[0]);
		print map { s/^\s+|\s+$//gr . "\n" }
		      split /,/, $c->get_pkg_by_name("dh-extras")->{$ARGV[1]} // "";
	' "$TOP/debian/control" "$1" | sed "/^\$/d"
}

# The libraries the library loads with dlopen() (base/dynload.h), which
# dpkg-shlibdeps cannot see: each soname's package is named in Depends,
# libpq (a registry in PostgreSQL, which a store may not use) in
# Recommends.
test_expect_success 'each library loaded with dlopen() is a dependency' '
	depends >depends && relations Recommends >recommends &&
	for f in "$TOP"/rewriter/*/*.c; do
		sed -n "s/^DYNLOAD_LIBRARY([a-z0-9_]*, \([^,]*\),.*/\1/p" "$f" |
		while read -r name; do
			case $name in
			\"*) echo "$name" | tr -d "\"" ;;
			*) sed -n "s/^#define $name \"\([^\"]*\)\"\$/\1/p" "$f" ;;
			esac || return 1
		done || return 1
	done >sonames &&
	test "$(wc -l <sonames)" -eq 8 &&
	while read -r soname; do
		pkg=$(dpkg -S "*/$soname" | sed -n "1s/[:,].*//p") &&
		case $soname in
		libpq.*) list=recommends ;;
		*) list=depends ;;
		esac &&
		{ grep -qx "$pkg" $list || echo "$soname ($pkg) not in $list"; } || return 1
	done <sonames >missing &&
	test ! -s missing || { cat missing; false; }
'

test_done
