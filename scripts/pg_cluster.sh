#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benches of the Postgres search.
#   scripts/pg_cluster.sh start DIR [PORT]  → prints the URL (postgres://…/site) on its last line
#   scripts/pg_cluster.sh stop DIR [fast|immediate]
# Uses the PostgreSQL 15 server binaries (Debian's postgresql-15). initdb and the server refuse
# to run as root, so as root they run as the `postgres` user (or `nobody`), owning DIR.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?cluster directory}
port=${3:-54329}
bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    local user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    chown -R "$user" "$dir"
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}
case "$cmd" in
start)
  mkdir -p "$dir"
  chmod 755 "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
  fi
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50" start >/dev/null
  "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qtAc \
    "select 1 from pg_database where datname = 'site'" | grep -q 1 ||
    "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "create database site"
  echo "postgres://postgres@127.0.0.1:$port/site"
  ;;
stop)
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m "${3:-fast}" -w stop >/dev/null
  fi
  ;;
*)
  echo "usage: $0 start|stop DIR [PORT]" >&2
  exit 2
  ;;
esac
