#!/bin/sh
# The documentation names files that exist: every templates/ path the
# README, the man pages and the sources' comments give (an upper-case
# placeholder such as NAME standing for any name) is in the tree, as it
# is installed under DATADIR.
. "$TOP/tests/lib.sh"

test_expect_success 'every templates/ path the documentation names exists' '
	(cd "$TOP" && grep -rohE "templates/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*" \
		README.md dh-extras rewriter) | sed "s/\.\$//" | sort -u >named &&
	test -s named &&
	while read -r path; do
		pattern=$(echo "$path" | sed "s/[A-Z][A-Z]*/*/g") &&
		set -- "$TOP"/$pattern &&
		{ test -e "$1" || echo "$path"; } || return 1
	done <named >missing &&
	test ! -s missing || { cat missing; false; }
'

test_done
