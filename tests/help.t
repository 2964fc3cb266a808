#!/bin/sh
# Every command's --help is the SYNOPSIS and OPTIONS of its manual (the
# POD is the only source of both): each option the manual lists is in the
# help, and the help names the manual; every command tells its version.

. "$TOP/tests/lib.sh"

for pod in "$TOP"/dh-extras/*.pod; do
	case $pod in *.[57].pod) continue ;; esac
	name=$(basename "$pod" .pod)
	test_expect_success "$name --help: its manual's synopsis and options" "
		$name --help >$name.help &&
		grep_q '^Usage:' $name.help &&
		grep_q '^The whole manual: man $name\$' $name.help &&
		awk '/^=head1 /{in_opts = (\$0 == \"=head1 OPTIONS\")} in_opts' '$pod' |
			sed -n 's/^=item B<\\(-[^>]*\\)>.*/\\1/p' >$name.options &&
		test -s $name.options &&
		while read -r option; do
			grep -qF -e \"\$option\" $name.help || { echo \"missing \$option\"; exit 1; }
		done <$name.options
	"
	test_expect_success "$name --version: its name and version" "
		$name --version >$name.version &&
		grep_q '^$name [0-9][^ ]*\$' $name.version &&
		test \$(wc -l <$name.version) = 1
	"
done

test_done
