#!/bin/sh
# extras-rewrite refuses bad input with one line naming the problem and
# exit status 2, and writes nothing.

. "$TOP/tests/lib.sh"

# refused NAME SETUP ARGS PATTERN: SETUP builds tree/, the run with ARGS
# must exit 2 with one error line matching PATTERN and leave tree/ as it was.
refused () {
	test_expect_success "$1" "
		rm -rf tree && mkdir tree && $2 &&
		(cd tree && find . -printf '%p %l\n' | sort) >before &&
		expect_status 2 extras-rewrite $3 2>stderr &&
		test \$(wc -l <stderr) -le 3 &&
		grep_q '^extras-rewrite: error: $4' stderr &&
		(cd tree && find . -printf '%p %l\n' | sort) >after &&
		cmp before after
	"
}

two_bins='mkdir -p tree/usr/bin tree/bin && touch tree/usr/bin/foo tree/bin/foo'
refused 'usr/bin/foo and bin/foo would collide' "$two_bins" \
	'--app foo tree' '.*would move to opt/extras.ubuntu.com/foo/bin/foo, where'

refused 'a .desktop file and its extras- twin would collide' \
	'mkdir -p tree/usr/share/applications &&
	 touch tree/usr/share/applications/foo.desktop \
	       tree/usr/share/applications/extras-foo.desktop' \
	'--app foo tree' '.*foo.desktop: would move onto .*extras-foo.desktop'

refused 'a file would move onto one the namespace already holds' \
	'mkdir -p tree/usr/share/foo tree/opt/extras.ubuntu.com/foo/share/foo &&
	 touch tree/usr/share/foo/x tree/opt/extras.ubuntu.com/foo/share/foo/x' \
	'--app foo tree' '.*usr/share/foo/x: would move onto'

refused 'a link would move onto a link the namespace holds, without --links-replace' \
	'mkdir -p tree/usr/bin tree/opt/extras.ubuntu.com/foo/bin &&
	 touch tree/usr/bin/foo && ln -s foo tree/usr/bin/bar &&
	 ln -s foo tree/opt/extras.ubuntu.com/foo/bin/bar' \
	'--app foo tree' '.*usr/bin/bar: would move onto'

refused 'with --links-replace, a link still cannot replace a directory' \
	'mkdir -p tree/usr/bin tree/opt/extras.ubuntu.com/foo/bin/bar &&
	 touch tree/usr/bin/foo && ln -s foo tree/usr/bin/bar' \
	'--app foo --links-replace tree' '.*usr/bin/bar: would move onto'

refused 'with --links-replace, a file still cannot replace one' \
	'mkdir -p tree/usr/bin tree/opt/extras.ubuntu.com/foo/bin &&
	 touch tree/usr/bin/bar tree/opt/extras.ubuntu.com/foo/bin/bar' \
	'--app foo --links-replace tree' '.*usr/bin/bar: would move onto'

refused 'with --links-replace, bad input elsewhere removes nothing' \
	'mkdir -p tree/usr/bin tree/bin tree/opt/extras.ubuntu.com/foo/bin &&
	 touch tree/usr/bin/foo tree/bin/foo && ln -s foo tree/usr/bin/bar &&
	 ln -s foo tree/opt/extras.ubuntu.com/foo/bin/bar' \
	'--app foo --links-replace tree' '.*would move to opt/extras.ubuntu.com/foo/bin/foo, where'

refused 'a symlink where the namespace must be a directory' \
	'mkdir -p tree/usr/bin && touch tree/usr/bin/foo && ln -s / tree/opt' \
	'--app foo tree' '.*tree/opt: is not a directory, and opt/extras.ubuntu.com/foo'

refused 'a name the rewriter keeps for its temporary files' \
	'mkdir -p tree/usr/bin && touch tree/usr/bin/foo.dpkg-new' \
	'--app foo tree' '.*foo.dpkg-new: name ends in a suffix reserved'

refused 'an app id with a comma' 'touch tree/x' '--app foo,bar tree' \
	"app id .foo,bar. is not a valid Debian package name"

refused 'an app id with upper case' 'touch tree/x' '--app Foo tree' \
	"app id .Foo. may hold only a-z"

refused 'a root under /tmp' 'touch tree/x' '--app foo --root /tmp/x tree' \
	"root ./tmp/x. lies in a system directory"

refused 'a relative root' 'touch tree/x' '--app foo --root opt/x tree' \
	"root .opt/x. is not an absolute path"

refused 'a root with ..' 'touch tree/x' '--app foo --root /opt/../etc tree' \
	"root ./opt/\\.\\./etc. has a component starting with"

refused 'a missing tree' 'true' '--app foo tree/none' \
	'tree/none: cannot open directory'

refused 'no --app' 'true' 'tree' '--app is required'

refused 'a bad --jobs' 'true' '--app foo --jobs 0 tree' \
	'--jobs needs a number'

test_expect_success '--help documents every option' '
	extras-rewrite --help >help &&
	for o in --app --root --json --dry-run --jobs --links-replace; do
		grep_q "$o" help || return 1
	done
'

test_done
