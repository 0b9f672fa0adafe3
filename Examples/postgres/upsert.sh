#!/usr/bin/env bash
# Upserts a per-account report that txfold has already written into PostgreSQL: load.sh's second
# half, for a job that runs txfold itself (Examples/nightly/nightly.sh runs it each night).
#
#   PGHOST=db.internal PGDATABASE=reports ./upsert.sh accounts.jsonl stats.json
#
# stats.json is the run's --stats document: its account count must equal the report's lines. A
# --changed-only report (its stats have "changedAccounts") holds only the accounts that changed:
# those are replaced, their old rows deleted first, in one transaction; the others stay as they are.
# $PSQL names the client (default: psql); the connection comes from the libpq variables.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
psql_bin="${PSQL:-psql}"

if [ "$#" -ne 2 ]; then
  echo "usage: $0 ACCOUNTS.jsonl STATS.json" >&2
  exit 64
fi
report="$1"
stats_file="$2"

number_of() {  # the whole number of a top-level key of the one-line stats document; empty without it
  { grep -o "\"$1\":[0-9]*" "$stats_file" || true; } | tail -n 1 | cut -d: -f2
}
accounts="$(number_of accounts)"
changed="$(number_of changedAccounts)"
# The lines to expect: with --changed-only the changed accounts, else every account.
expected="${changed:-$accounts}"
if ! [[ "$expected" =~ ^[0-9]+$ ]]; then
  echo "upsert.sh: $stats_file has no account count; nothing was loaded" >&2
  exit 1
fi
mode=()
if [ -n "$changed" ]; then mode=(-v changed_only=1); fi

psql_run() {
  # -X: no ~/.psqlrc, whose settings could change what the scripts do.
  "$psql_bin" -X --quiet -v ON_ERROR_STOP=1 "$@"
}

# The tables are created only when missing: CREATE TABLE IF NOT EXISTS would still need
# the CREATE privilege, which a loading role that was only granted rights on the tables lacks.
tables="$(psql_run -At -c "SELECT to_regclass('txfold_accounts') IS NOT NULL
                              AND to_regclass('txfold_accounts_staging') IS NOT NULL")"
if [ "$tables" != "t" ]; then
  psql_run -f "$here/schema.sql"
fi
psql_run -v expected_accounts="$expected" "${mode[@]}" -f "$here/load.sql" < "$report"

if [ -n "$changed" ]; then
  echo "upsert.sh: replaced the $changed accounts that changed (of $accounts)"
else
  echo "upsert.sh: upserted $accounts accounts"
fi
