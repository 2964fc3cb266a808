#!/bin/sh
# chain-lint: in every shell test's bodies and helper functions, each
# statement is chained to the next with && and each loop's body ends in
# || return 1, so that no failure goes unnoticed (tests/chainlint.py).

. "$TOP/tests/lib.sh"

if [ -x /usr/bin/python3 ] && command -v shfmt >/dev/null; then
	test_set_prereq CHAINLINT
fi

test_expect_success CHAINLINT 'the lint finds a broken chain, an unguarded loop, || true' '
	cat >bad.t <<-\EOF &&
	test_expect_success "t" "
		false
		true &&
		for i in 1 2; do
			test \$i = 1
		done &&
		ls nothing || true
	"
	helper () {
		cd nowhere
		ls
	}
	EOF
	expect_status 1 /usr/bin/python3 "$TOP/tests/chainlint.py" bad.t >out &&
	cat >expect <<-\EOF &&
	bad.t:2: test '"'t'"': no && after this statement
	bad.t:5: test '"'t'"': a loop'"'"'s body ends in || return 1 (or exit 1), else only its last round counts
	bad.t:7: test '"'t'"': || true ignores every failure before it (expect_status N cmd, or || test $? = N for the one status meant)
	bad.t:10: function helper: no && after this statement
	EOF
	diff -u expect out
'

test_expect_success CHAINLINT 'the lint accepts handlers, background jobs, status captures' '
	cat >good.t <<-\EOF &&
	test_expect_success "t" "
		x=1
		( st=0; cmd || st=\$?; echo \$st >st ) &
		wait &&
		for i in 1 2; do
			test \$i -gt 0 || return 1
		done &&
		cmd || { cat err; false; }
	"
	EOF
	/usr/bin/python3 "$TOP/tests/chainlint.py" good.t
'

test_expect_success 'lib.sh: a test body stops at its first failing statement' '
	cat >stops.t <<-\EOF &&
	. "$TOP/tests/lib.sh"
	test_expect_success "unchained" "
		false
		echo reached
	"
	test_done
	EOF
	expect_status 1 sh stops.t >out &&
	grep_q "^not ok 1 - unchained\$" out &&
	! grep reached out
'

test_expect_success 'lib.sh: a failing setup stops the file, no test runs' '
	cat >setup.t <<-\EOF &&
	. "$TOP/tests/lib.sh"
	test_setup "the fixture" false
	test_expect_success "after" "true"
	test_done
	EOF
	expect_status 1 sh setup.t >out &&
	grep_q "^Bail out! setup failed: the fixture\$" out &&
	! grep "^ok" out
'

for f in "$TOP"/tests/*.t "$TOP"/tests/*.sh "$TOP"/tests/sbuild/*.t \
	"$TOP"/tests/confinement/*.t "$TOP"/tests/confinement/*.sh \
	"$TOP"/tests/store/*.t "$TOP"/tests/store/*.sh; do
	f=${f#"$TOP"/}
	test_expect_success CHAINLINT "chain-lint: $f" "
		cd \"\$TOP\" && /usr/bin/python3 tests/chainlint.py $f
	"
done

test_done
