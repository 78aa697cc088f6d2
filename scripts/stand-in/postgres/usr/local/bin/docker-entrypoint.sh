#!/bin/sh
# The part of the official postgres image's entrypoint that docker-compose.yml uses: a first start creates
# the cluster in PGDATA with POSTGRES_USER (superuser), POSTGRES_PASSWORD and POSTGRES_DB, each also read from
# VAR_FILE (Docker secrets); every start then runs the command as the postgres user.
set -eu

# file_env VAR DEFAULT: VAR from the file VAR_FILE names, else VAR, else DEFAULT.
file_env() {
  eval "value=\${$1:-} file=\${$1_FILE:-}"
  if [ -n "$file" ] && [ -n "$value" ]; then echo "stand-in postgres: both $1 and $1_FILE are set" >&2; exit 1; fi
  [ -z "$file" ] || value="$(cat "$file")"
  export "$1=${value:-$2}"
}

if [ "${1:-}" != postgres ]; then exec "$@"; fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  file_env POSTGRES_USER postgres
  file_env POSTGRES_PASSWORD ''
  file_env POSTGRES_DB "$POSTGRES_USER"
  if [ -z "$POSTGRES_PASSWORD" ]; then
    echo "stand-in postgres: the database is uninitialised and POSTGRES_PASSWORD (or _FILE) is not set" >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    # Single-user mode: no server listens before the database exists, so a health check cannot pass early.
    echo "CREATE DATABASE \"$POSTGRES_DB\"" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec "$@"
