# Sourced by the example tests (Examples/postgres/test.sh, Examples/nightly/test.sh): starts a
# throwaway PostgreSQL server that only this test can reach, and stops it.
#
#   . Examples/postgres/private_server.sh
#   start_private_postgres "$work"    # PGHOST, PGPORT, PGUSER, PGDATABASE=postgres and PSQL exported
#   stop_private_postgres "$status"   # in the EXIT trap; prints the log's end when status is not 0
#
# Debian's postgresql is installed with apt-get when the server is missing and this runs as root.
# Returns 1 (with a message) when no server can be had.

pgroot=""        # the server's directory, once there is one
pg_started=false
server_user=""

# The server's programs: Debian keeps them off PATH, under /usr/lib/postgresql/VERSION/bin.
find_pgbin() {  # the newest version first
  local dir dirs=()
  mapfile -t dirs < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V -r)
  if command -v initdb > /dev/null; then dirs+=("$(dirname "$(command -v initdb)")"); fi
  for dir in "${dirs[@]}"; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

as_server() {
  # From /, a directory every user may enter (initdb warns when it cannot return to the cwd).
  if [ -n "$server_user" ]; then (cd / && runuser -u "$server_user" -- "$@"); else "$@"; fi
}

start_private_postgres() {  # LOG_DIR: where apt-get's log goes
  if ! pgbin="$(find_pgbin)" && [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
    echo "PostgreSQL: installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -q && apt-get install -y -q postgresql; } > "$1/apt.log" 2>&1 || tail -n 20 "$1/apt.log"
  fi
  if ! pgbin="$(find_pgbin)"; then
    echo "no PostgreSQL server (initdb, pg_ctl, postgres) was found or could be installed" >&2
    return 1
  fi
  if [ -x "$pgbin/psql" ]; then export PSQL="$pgbin/psql"; else export PSQL=psql; fi

  # PostgreSQL refuses to run as root: as root, the server runs as the postgres user
  # (Debian's package creates it), or as a system user made for the purpose, and owns
  # its directory. That directory is under /tmp, because the caller's mktemp -d (mode
  # 0700, root's) is not open to it.
  if [ "$(id -u)" -eq 0 ]; then
    if id postgres > /dev/null 2>&1; then
      server_user=postgres
    else
      server_user="txfold-pg"
      id "$server_user" > /dev/null 2>&1 ||
        useradd --system --user-group --no-create-home --shell /usr/sbin/nologin "$server_user"
    fi
    pgroot="$(mktemp -d /tmp/txfold-pg.XXXXXX)"
    chown "$server_user:" "$pgroot"
  else
    pgroot="$(mktemp -d)"
  fi
  as_server mkdir -m 0700 "$pgroot/socket"

  # No TCP at all (listen_addresses=''): clients reach the server only through a socket
  # in a directory nobody else may enter, which is why trust authentication is safe
  # here. The port then only names the socket file; it is still one the kernel reports
  # free, so that turning TCP on to debug cannot clash with another server.
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  as_server "$pgbin/initdb" --pgdata="$pgroot/data" --username=postgres --auth=trust \
    --encoding=UTF8 --locale=C --no-sync > "$pgroot/initdb.log" 2>&1 ||
    { cat "$pgroot/initdb.log" >&2; return 1; }
  # fsync=off: a throwaway cluster, no need to wait for the disk.
  as_server "$pgbin/pg_ctl" -D "$pgroot/data" -l "$pgroot/server.log" -w -t 60 \
    -o "-k $pgroot/socket -p $port -c listen_addresses='' -c fsync=off" start > /dev/null
  pg_started=true

  # Only the server just started: no variable from the caller's environment may send
  # the clients anywhere else.
  unset PGHOSTADDR PGSERVICE PGSERVICEFILE PGPASSWORD PGPASSFILE PGSSLMODE PGOPTIONS PGREQUIRESSL
  export PGHOST="$pgroot/socket" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

stop_private_postgres() {  # STATUS: the caller's exit status
  if $pg_started; then
    # immediate: nothing in this throwaway cluster needs a clean shutdown.
    as_server "$pgbin/pg_ctl" -D "$pgroot/data" -m immediate -w stop > /dev/null 2>&1 || true
    if [ "$1" -ne 0 ] && [ -f "$pgroot/server.log" ]; then
      echo "--- the end of the PostgreSQL server log:" >&2
      tail -n 20 "$pgroot/server.log" >&2 || true
    fi
  fi
  if [ -n "$pgroot" ]; then rm -rf "$pgroot"; fi
}
