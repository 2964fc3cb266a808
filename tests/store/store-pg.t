#!/bin/sh
# The store's pipeline with its jobs in PostgreSQL (what several build
# hosts share): store-lib.sh's story told to a server this test starts in
# its scratch directory, as conflicts-pg.t does, and stops on exit.

. "$TOP/tests/lib.sh"
. "$TOP/tests/pg-lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"
. "$TOP/tests/store/store-lib.sh"

pg_stop_hook=accept_done
pg_start 'extras-store with PostgreSQL' || { test_done; exit; }

test_setup 'keys: two uploaders and the store' store_fixtures
store_publish_story "$PG_URI"
store_refuse_story
store_retry_story
store_grant_story "$PG_URI"

test_done
