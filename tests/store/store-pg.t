#!/bin/sh
# The store's pipeline with its jobs in PostgreSQL (what several build
# hosts share): store-lib.sh's story told to a server this test starts in
# its scratch directory, as conflicts-pg.t does, and stops on exit.

. "$TOP/tests/lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"
. "$TOP/tests/store/store-lib.sh"

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
	test_skip 'extras-store with PostgreSQL' 'no PostgreSQL server'
	test_done
	exit
fi

PGDIR=$TRASH/pg
mkdir "$PGDIR"
if [ "$(id -u)" = 0 ]; then
	# initdb refuses root; the server runs as nobody.
	pguser=nobody
	as_pguser () { runuser -u nobody -- "$@"; }
	chmod 755 "$TRASH"
	chown nobody "$PGDIR"
else
	pguser=$(id -un)
	as_pguser () { "$@"; }
fi

stop_server () {
	accept_done &&
	if as_pguser "$PGBIN/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1; then
		as_pguser "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop \
			>/dev/null
	fi
}
if [ -z "${KEEP_TRASH:-}" ]; then
	trap 'stop_server; rm -rf "$TRASH"' EXIT
else
	trap 'stop_server' EXIT
fi

test_expect_success 'start a PostgreSQL server' '
	as_pguser "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U "$pguser" \
		--no-sync >"$PGDIR/initdb.log" 2>&1 &&
	as_pguser "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
		-o "-k $PGDIR -c listen_addresses= -c fsync=off" start >/dev/null
'

test_setup 'keys: two uploaders and the store' store_fixtures
store_story "postgresql:///postgres?host=$PGDIR&user=$pguser"

test_done
