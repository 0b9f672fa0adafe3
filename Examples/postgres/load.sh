#!/usr/bin/env bash
# Folds a dump per account and upserts one row per account into PostgreSQL:
#
#   PGHOST=db.internal PGDATABASE=reports PGUSER=loader ./load.sh dump.jsonl.gz
#   ./load.sh --timezone Europe/Amsterdam --members 5 /data/dumps/2024-06-*.jsonl.gz
#
# The arguments are txfold group's options (not -o, --format or --stats) and input files;
# --per-account --format jsonl and a --stats file of its own are added. The connection comes from the libpq variables
# (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD or ~/.pgpass, PGSSLMODE …).
# $TXFOLD names the binary (default: txfold on PATH), $PSQL the client (default: psql).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
txfold="${TXFOLD:-txfold}"

if [ "$#" -eq 0 ]; then
  echo "usage: $0 [txfold group options] DUMP..." >&2
  exit 64
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
report="$work/accounts.jsonl"
stats_file="$work/stats.json"

# To a file first, not through a pipe: if txfold failed half-way, a pipe would already
# have fed psql the accounts before the failure, and psql would commit them. With -o,
# txfold writes the file only once the whole run has succeeded.
"$txfold" group --quiet --per-account --format jsonl -o "$report" --stats "$stats_file" "$@"

# Every line of the report is an account (a jsonl output holds only its rows); the run's
# accounting is the --stats document, whose account count upsert.sh checks against the lines.
number_of() {  # the whole number of a top-level key of the one-line stats document
  grep -o "\"$1\":[0-9]*" "$stats_file" | tail -n 1 | cut -d: -f2
}
"$here/upsert.sh" "$report" "$stats_file" > /dev/null
summary="$(number_of lines) lines: $(number_of accepted) accepted, $(number_of rejected) rejected, $(number_of duplicates) duplicates"
echo "load.sh: upserted $(number_of accounts) accounts; txfold: $summary"
