#!/bin/sh
# extras-conflicts against PostgreSQL: the stories of conflicts.t and
# identity.t, told to a server this test starts in its scratch directory
# (as an unprivileged user, listening only on a socket there) and stops on
# exit.

. "$TOP/tests/lib.sh"
. "$TOP/tests/pg-lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"

pg_stop_hook=accept_done
pg_start 'extras-conflicts with PostgreSQL' || { test_done; exit; }

test_setup 'Contents files and packages' conflicts_fixtures
conflicts_story "$PG_URI"
test_setup 'uploaders, keys and uploads' accept_fixtures
accept_story "$PG_URI"
test_setup 'alice.s source and packages' identity_fixtures
identity_story "$PG_URI"

test_expect_success 'bad input: an unreachable server' '
	expect_status 2 extras-conflicts list \
		-d "postgresql:///postgres?host=$TRASH/none" 2>err &&
	grep_q "^extras-conflicts: error: PostgreSQL: cannot connect: " err &&
	test $(wc -l < err) = 1
'

test_done
