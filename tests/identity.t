#!/bin/sh
# One identity from upload to claim: what extras-conflicts accept decides
# (app id, source, binary names) is handed to extras-convert, extras-review
# and extras-conflicts claim, each refusing a package that disagrees; a
# second uploader is refused the first's app, names, exports and bus name.

. "$TOP/tests/lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"
. "$TOP/tests/review-lib.sh"

test_setup 'keys and uploads' accept_fixtures
test_setup 'alice.s source and packages' identity_fixtures
identity_story "$TRASH/db"

# The gate, given the identity: app demo, packages extras-demo and
# extras-demo-data (review-lib.sh's good package is extras-demo).
demo_fixtures () {
	good_tree good && build good good.deb &&
	printf "%s\n" "App: demo" "Source: extras-demo" "Version: 1.0" \
		"Uploader: alice" "Packages: extras-demo, extras-demo-data" >demo.id
}
test_setup 'a good package and its identity' demo_fixtures

test_expect_success 'review --identity: the accepted package passes' '
	extras-review --identity demo.id good.deb >out &&
	grep_q "^extras-review: good.deb: extras-demo 1.0 accepted$" out
'

test_expect_success 'review --identity: a package the store did not accept' '
	sed "s/^Packages: .*/Packages: extras-demo-data/" demo.id >data.id &&
	expect_status 1 extras-review --identity data.id good.deb >out &&
	grep_q "^good.deb: identity: package extras-demo is not one of app demo.s packages, as the store accepted them$" out
'

test_expect_success 'review --identity: the app id is the store.s, not the declaration.s' '
	cp -a good decl &&
	sed -i "s/^app: demo$/app: other/" decl/DEBIAN/extras.yaml &&
	build decl decl.deb &&
	expect_status 1 extras-review --identity demo.id decl.deb >out &&
	grep_q "^decl.deb: identity: extras.yaml:1: app .other. is not demo, the app the store decided$" out &&
	sed "s/^App: demo/App: other/; s/^Source: extras-demo/Source: extras-other/" \
		demo.id >other.id &&
	expect_status 1 extras-review --identity other.id good.deb >out &&
	grep_q "^good.deb: identity: source extras-demo is not extras-other, the source the store accepted$" out &&
	grep_q "^good.deb: identity: extras.yaml:1: app .demo. is not other, the app the store decided$" out
'

test_expect_success 'review --identity: no upgrade of another holder.s package' '
	expect_status 1 extras-review --identity demo.id --previous birds.deb \
		good.deb >out &&
	grep_q "^good.deb: identity: the replaced package extras-birds (birds.deb) is not one of app demo.s packages: an upload replaces only its own$" out
'

test_expect_success 'identity file: bad input is one line naming the file, status 2' '
	for bad in "" "App: demo" \
		"$(cat demo.id; echo "Extra: x")" \
		"$(sed "s/^App: demo/App: Demo/" demo.id)" \
		"$(sed "s/^Source: .*/Source: extras-other/" demo.id)" \
		"$(sed "s/^Packages: .*/Packages: Bad_Name/" demo.id)" \
		"$(sed "s/^Version: .*/Version: a:b/" demo.id)" \
		"$(cat demo.id; echo; cat demo.id)" \
		"$(cat demo.id; echo "App: demo")"; do
		printf "%s\n" "$bad" >bad.id &&
		expect_status 2 extras-review --identity bad.id good.deb 2>err &&
		test $(wc -l <err) = 1 &&
		grep_q "^extras-review: error: bad.id" err || return 1
	done &&
	ln -s demo.id link.id &&
	expect_status 2 extras-convert --identity link.id greet-tree 2>err &&
	grep_q "link.id: cannot open: is a symbolic link" err
'

accept_done
test_done
