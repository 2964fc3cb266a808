#!/bin/sh
# The store's pipeline with its jobs in SQLite: extras-store from an
# empty store to a user's apt upgrade (store-lib.sh tells the story).

. "$TOP/tests/lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"
. "$TOP/tests/store/store-lib.sh"

test_setup 'keys: two uploaders and the store' store_fixtures
store_story "$TRASH/db"

accept_done
test_done
