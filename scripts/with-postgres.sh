#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL: Debian's package (installed
# if missing), a fresh cluster in a temporary folder on a free port of
# 127.0.0.1, stopped and removed when the command ends. The command finds
# the server in LEGION_TEST_POSTGRES (a URL without a database).
#   scripts/with-postgres.sh cargo test -p legion-server --test suite -- storage::
set -euo pipefail

pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
PGBIN="$(pgbin)"
if [ -z "$PGBIN" ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  PGBIN="$(pgbin)"
fi

DIR="$(mktemp -d /tmp/legion-pg.XXXXXX)"
# A port nobody listens on: try random ones until a connection is refused.
# Below Linux's ephemeral range (32768-60999): a port there can be free to
# connect to yet held by an outgoing connection, and then bind fails.
PORT=""
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 10000))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then PORT=$p; break; fi
done
[ -n "$PORT" ] || { echo "with-postgres: no free port" >&2; exit 1; }
# The server refuses to run as root: as root, run it as the package's user.
as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
stop() {
  as_pg "'$PGBIN/pg_ctl' -D '$DIR/data' -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
as_pg "'$PGBIN/initdb' -D '$DIR/data' -A trust -U postgres" >"$DIR/initdb.log" 2>&1 \
  || { cat "$DIR/initdb.log" >&2; exit 1; }
as_pg "'$PGBIN/pg_ctl' -D '$DIR/data' -l '$DIR/server.log' -w \
  -o \"-p $PORT -k '$DIR' -c listen_addresses=127.0.0.1 -c max_connections=300\" start" >/dev/null \
  || { cat "$DIR/server.log" >&2; exit 1; }
export LEGION_TEST_POSTGRES="postgres://postgres@127.0.0.1:$PORT"
"$@"
