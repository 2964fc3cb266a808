#!/bin/sh
# The documentation says what the code does, once: the man pages
# (dh-extras/*.pod) are the reference and the README the guide.  Every
# templates/ path the README, the man pages and the sources' comments give
# (an upper-case placeholder such as NAME standing for any name) is in the
# tree, as it is installed under DATADIR; extras-review(1)'s list of rules
# is the rules the code reports, extras.yaml(5)'s list of privileges the
# catalogue's, dh-extras(7)'s sequence the one dh runs; every man page
# named exists; every page is clean POD.
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

# The rules the code reports: the literal second argument of every
# review_problem() call under DIR.  A call whose rule is not a literal on
# the line is listed in FILE.bad, since no rule can be read from it.
code_rules () {
	grep -rn --include="*.c" "review_problem(" "$1" |
		grep -v -e "review_problem(struct" -e "struct review_problem" >calls &&
	test -s calls &&
	{ grep -v "review_problem([^,()]*, [^,()]*, \"[a-z-]*\"" calls >"$2.bad" ||
		test $? = 1; } &&
	sed -n "s/.*review_problem([^,()]*, [^,()]*, \"\([a-z-]*\)\".*/\1/p" calls |
		sort -u >"$2"
}

# The rules the manual lists: one "=item B<rule>" each under "=head2
# Rules" of POD; an item naming anything else is listed in FILE.bad.
doc_rules () {
	awk '/^=head/ { in_rules = ($0 == "=head2 Rules") } in_rules && /^=item/' \
		"$1" >items &&
	test -s items &&
	{ grep -v "^=item B<[a-z-]*>\$" items >"$2.bad" || test $? = 1; } &&
	sed "s/^=item B<\(.*\)>\$/\1/" items | sort >"$2"
}

test_expect_success 'extras-review(1) lists every review rule of the code, once, and no other' '
	code_rules "$TOP/rewriter" code &&
	test ! -s code.bad || { cat code.bad; false; } &&
	test $(wc -l <code) -ge 20 &&
	doc_rules "$TOP/dh-extras/extras-review.pod" doc &&
	test ! -s doc.bad || { cat doc.bad; false; } &&
	sort -u doc | diff -u doc - &&
	diff -u doc code
'

test_expect_success 'the rule check sees a rule the code adds or the manual drops' '
	mkdir -p added/review &&
	cp "$TOP"/rewriter/review/*.c added/review/ &&
	echo "	review_problem(r, i, \"new-rule\", \"x\");" >>added/review/review.c &&
	code_rules added more &&
	doc_rules "$TOP/dh-extras/extras-review.pod" doc &&
	! diff doc more >/dev/null &&
	grep -v "^=item B<works>\$" "$TOP/dh-extras/extras-review.pod" >less.pod &&
	doc_rules less.pod less &&
	code_rules "$TOP/rewriter" code &&
	! diff less code >/dev/null &&
	echo "	review_problem(r, i, rule, \"x\");" >>added/review/review.c &&
	code_rules added more &&
	grep_q "review_problem(r, i, rule" more.bad
'

test_expect_success 'extras.yaml(5) lists every privilege of the catalogue with its class' '
	for f in "$TOP"/templates/apparmor/privileges/*.apparmor; do
		name=$(sed -n "s/^# Privilege: //p" "$f") &&
		class=$(sed -n "s/^# Class: //p" "$f") &&
		echo "=item B<$name> ($class)" || return 1
	done | sort >catalogue &&
	test $(wc -l <catalogue) -ge 10 &&
	awk "/^=head1 /{ p = (\$0 == \"=head1 PRIVILEGES\") } p && /^=item/" \
		"$TOP/dh-extras/extras.yaml.5.pod" | sort >listed &&
	diff -u listed catalogue
'

test_expect_success 'dh-extras(7) lists the dh_extras_* steps in the order dh runs them' '
	cp -R "$TOP/tests/fixtures/greet" seq &&
	(cd seq && dh binary --no-act --with extras && dh clean --no-act --with extras) >dh.out &&
	sed -n "s/^ *\(dh_extras_[a-z]*\).*/\1/p" dh.out >run &&
	test $(wc -l <run) -ge 15 &&
	awk "/^=head2 /{ p = (\$0 == \"=head2 The sequence\") } p" \
		"$TOP/dh-extras/dh-extras.7.pod" |
		sed -n "s/^=item L<\(dh_extras_[a-z]*\)(1)>.*/\1/p" >listed &&
	diff -u listed run
'

test_expect_success 'every dh-extras man page the manuals and the README name exists' '
	(cd "$TOP" && grep -ohE "(dh_extras_[a-z]+|extras-[a-z]+|dh-extras|extras\.yaml)\([157]\)" \
		README.md dh-extras/*.pod) | sort -u >pages &&
	test $(wc -l <pages) -ge 20 &&
	while read -r page; do
		name=${page%"("*} && section=${page#*"("} && section=${section%")"} &&
		if test "$section" = 1; then pod=$TOP/dh-extras/$name.pod
		else pod=$TOP/dh-extras/$name.$section.pod
		fi &&
		{ test -f "$pod" || echo "$page"; } || return 1
	done <pages >missing &&
	test ! -s missing || { cat missing; false; }
'

test_expect_success 'the README links to every man page' '
	(cd "$TOP" && ls dh-extras/*.pod) >pods &&
	test $(wc -l <pods) -ge 20 &&
	while read -r pod; do
		{ grep -qF "]($pod)" "$TOP/README.md" || echo "$pod"; } || return 1
	done <pods >unlinked &&
	test ! -s unlinked || { cat unlinked; false; }
'

test_expect_success 'every man page is clean POD' '
	for pod in "$TOP"/dh-extras/*.pod; do
		podchecker -warnings -warnings "$pod" >/dev/null 2>check.out &&
		! grep -v "pod syntax OK" check.out || { cat check.out; return 1; }
	done
'

test_done
