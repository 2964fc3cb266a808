#!/bin/sh
# extras-conflicts against PostgreSQL: the stories of conflicts.t and
# identity.t, told to a server this test starts in its scratch directory
# (as an unprivileged user, listening only on a socket there) and stops on
# exit.

. "$TOP/tests/lib.sh"
. "$TOP/tests/conflicts-lib.sh"
. "$TOP/tests/convert-fixture.sh"
. "$TOP/tests/identity-lib.sh"

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
	test_skip 'extras-conflicts with PostgreSQL' 'no PostgreSQL server'
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

# stop_server: on exit, the server if it runs (pg_ctl status says so).
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

test_setup 'Contents files and packages' conflicts_fixtures
conflicts_story "postgresql:///postgres?host=$PGDIR&user=$pguser"
test_setup 'uploaders, keys and uploads' accept_fixtures
accept_story "postgresql:///postgres?host=$PGDIR&user=$pguser"
test_setup 'alice.s source and packages' identity_fixtures
identity_story "postgresql:///postgres?host=$PGDIR&user=$pguser"

test_expect_success 'bad input: an unreachable server' '
	expect_status 2 extras-conflicts list \
		-d "postgresql:///postgres?host=$TRASH/none" 2>err &&
	grep_q "^extras-conflicts: error: PostgreSQL: cannot connect: " err &&
	test $(wc -l < err) = 1
'

test_done
