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

# The libraries decompress.c loads with dlopen(), which dpkg-shlibdeps
# cannot see: each soname's package is named in Depends.
test_expect_success 'each library decompress.c loads with dlopen() is a dependency' '
	depends >depends &&
	sed -n "s/^DL_LIBRARY([a-z0-9]*, \"\\([^\"]*\\)\".*/\\1/p" \
		"$TOP/rewriter/base/decompress.c" >sonames &&
	test "$(wc -l <sonames)" -eq 5 &&
	while read -r soname; do
		pkg=$(dpkg -S "*/$soname" | sed -n "1s/[:,].*//p") &&
		{ grep -qx "$pkg" depends || echo "$soname ($pkg)"; } || return 1
	done <sonames >missing &&
	test ! -s missing || { cat missing; false; }
'

# libxml2, which review-works.c loads with dlopen() for metainfo and
# GtkBuilder files: named in Depends too.
test_expect_success 'the libxml2 review-works.c loads with dlopen() is a dependency' '
	depends >depends &&
	soname=$(sed -n "s/^#define LIBXML2 \"\([^\"]*\)\"\$/\1/p" \
		"$TOP/rewriter/review/review-works.c") &&
	test -n "$soname" &&
	pkg=$(dpkg -S "*/$soname" | sed -n "1s/[:,].*//p") &&
	grep -qx "$pkg" depends
'

test_done
