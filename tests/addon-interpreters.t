#!/bin/sh
# Perl, Node and shell programs whose modules the relocation moved into the
# namespace find them there, whoever starts them and however, with no
# variable in the environment their children would inherit.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com

test_expect_success 'Perl: built with MakeMaker, the module in the namespace' '
	build_fixture cowbell || { tail -n 30 cowbell.log; false; } &&
	grep_q "^   dh_extras_modules" cowbell.log &&
	grep_q "dh_extras_modules: .*/bin/cowbell: finds its Perl modules in the namespace" cowbell.log &&
	deb=extras-cowbell_1.0_all.deb &&
	test -z "$(outside_namespace $deb /$ROOT/cowbell)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/cowbell/share/perl5/Cowbell.pm$" files &&
	grep_q "^$ROOT/cowbell/bin/cowbell$" files
'

test_expect_success 'Perl: the program loads its module and data from the namespace' '
	in_namespace extras-cowbell_1.0_all.deb -- /$ROOT/cowbell/bin/cowbell >out &&
	printf "More cowbell: ding ding\nINC: /$ROOT/cowbell/share/perl5/Cowbell.pm\n" >expect &&
	cmp expect out
'

test_expect_success 'Perl: run as "perl PROGRAM", with -T, and no PERL5LIB in its children' '
	in_namespace extras-cowbell_1.0_all.deb -- \
		env -u PERL5LIB perl -T /$ROOT/cowbell/bin/cowbell >out &&
	grep_q "^INC: /$ROOT/cowbell/share/perl5/Cowbell.pm$" out &&
	in_namespace extras-cowbell_1.0_all.deb -- env -u PERL5LIB \
		perl -e "do \"/$ROOT/cowbell/bin/cowbell\"; print \"PERL5LIB=\$ENV{PERL5LIB}\n\"" >out &&
	grep_q "^PERL5LIB=$" out
'

test_expect_success 'Perl: its messages name the lines as written' '
	in_namespace extras-cowbell_1.0_all.deb -- \
		/$ROOT/cowbell/bin/cowbell x 2>err >/dev/null &&
	echo "line 8" >expect &&
	cmp expect err
'

test_expect_success 'Perl: without the line, the module is not found (the test can fail)' '
	dpkg-deb -R extras-cowbell_1.0_all.deb raw &&
	sed -i "/# dh_extras_modules\$/d; /^#line 2\$/d" raw/$ROOT/cowbell/bin/cowbell &&
	dpkg-deb -b raw unpatched.deb >/dev/null &&
	! in_namespace unpatched.deb -- /$ROOT/cowbell/bin/cowbell 2>err &&
	grep_q "Can.t locate Cowbell.pm in @INC" err
'

test_expect_success 'Perl: a second run of the helper adds nothing' '
	p=cowbell/debian/extras-cowbell/$ROOT/cowbell/bin/cowbell &&
	cp $p before &&
	(cd cowbell && dh_extras_modules) &&
	cmp before $p
'

test_expect_success 'shell: a file it sources by its Debian path is found in the namespace' '
	in_namespace extras-cowbell_1.0_all.deb -- /$ROOT/cowbell/bin/cowbell-sh >out &&
	echo "More cowbell from sh: ding ding" >expect &&
	cmp expect out &&
	grep_q "^\\. /$ROOT/cowbell/share/cowbell/bell.sh$" ns/$ROOT/cowbell/bin/cowbell-sh
'

if command -v node >/dev/null; then
	test_set_prereq NODE
fi

test_expect_success NODE 'Node: the program requires its module from the namespace' '
	grep_q "dh_extras_modules: .*/bin/cowbell-js: finds its Node modules in the namespace" cowbell.log &&
	grep_q "^$ROOT/cowbell/share/nodejs/cowbell/index.js$" files &&
	in_namespace extras-cowbell_1.0_all.deb -- env -u NODE_PATH /$ROOT/cowbell/bin/cowbell-js >out &&
	printf "More cowbell from Node\nfrom: /$ROOT/cowbell/share/nodejs/cowbell/index.js\n" >expect &&
	cmp expect out
'

test_done
