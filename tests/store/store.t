#!/bin/sh
# The store's pipeline with its jobs in SQLite: extras-store from an
# empty store to a user's apt upgrade (store-lib.sh tells the story).

. "$TOP/tests/lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"
. "$TOP/tests/store/store-lib.sh"

if [ -z "${KEEP_TRASH:-}" ]; then
	trap 'store_cleanup; rm -rf "$TRASH"' EXIT
else
	trap 'store_cleanup' EXIT
fi

test_setup 'keys: two uploaders and the store' store_fixtures
store_publish_story "$TRASH/db"
store_user_setup
store_user_install
store_refuse_story
store_report_story
store_retry_story
store_user_upgrade
store_bad_log_story
store_grant_story "$TRASH/db"
store_stale_grant_story "$TRASH/db"

test_done
