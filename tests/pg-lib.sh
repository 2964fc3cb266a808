# pg-lib.sh: a PostgreSQL server of the test's own, in its scratch
# directory, listening only on a socket there, stopped on exit.  Source it
# after lib.sh; then
#
#	pg_start WHAT || { test_done; exit; }	(a skip when there is none)
#	store_story "$PG_URI"
#
# $PG_URI names the server; pg_stop_hook, when set, is run first on exit
# (the keys' agent stopped, say).

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PGDIR=$TRASH/pg

# as_pguser COMMAND...: as the server's user.  initdb refuses root, so as
# root the server runs as nobody.
if [ "$(id -u)" = 0 ]; then
	pguser=nobody
	as_pguser () { runuser -u nobody -- "$@"; }
else
	pguser=$(id -un)
	as_pguser () { "$@"; }
fi
PG_URI="postgresql:///postgres?host=$PGDIR&user=$pguser"

# pg_stop: on exit, the server if it runs (pg_ctl status says so).
pg_stop () {
	# The server stops whatever the hook says.
	if [ -n "${pg_stop_hook:-}" ]; then
		$pg_stop_hook || hook_status=$?
	fi &&
	if [ -n "$PGBIN" ] &&
		as_pguser "$PGBIN/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1; then
		as_pguser "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop \
			>/dev/null
	fi
}

# pg_start WHAT: a TAP line starting the server; without PostgreSQL, a
# skip of WHAT and status 1.
pg_start () {
	if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
		test_skip "$1" 'no PostgreSQL server'
		return 1
	fi
	mkdir "$PGDIR" &&
	if [ "$(id -u)" = 0 ]; then
		chmod 755 "$TRASH" &&
		chown nobody "$PGDIR"
	fi || return 1
	if [ -z "${KEEP_TRASH:-}" ]; then
		trap 'pg_stop; rm -rf "$TRASH"' EXIT
	else
		trap 'pg_stop' EXIT
	fi
	test_expect_success 'start a PostgreSQL server' '
		as_pguser "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U "$pguser" \
			--no-sync >"$PGDIR/initdb.log" 2>&1 &&
		as_pguser "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
			-o "-k $PGDIR -c listen_addresses= -c fsync=off" start >/dev/null
	'
}
