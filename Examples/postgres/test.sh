#!/usr/bin/env bash
# The integration test of Examples/postgres: per-account reports loaded into SQLite and,
# with TXFOLD_PG_TESTS=1, into a private PostgreSQL server; every account's count and
# per-currency totals queried back with SQL must equal what expected.py computes from
# the raw dump, which shares no code with txfold.
#
#   Examples/postgres/test.sh                        # SQLite only (needs python3)
#   TXFOLD_PG_TESTS=1 Examples/postgres/test.sh      # and PostgreSQL
#
# $TXFOLD names the binary to test; without it the release binary is built. The
# PostgreSQL part starts its own server (initdb into a temporary directory, a socket
# in a private directory, no TCP) and removes it on exit; it installs Debian's
# postgresql with apt-get when the server is missing and it runs as root.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

txfold="${TXFOLD:-}"
if [ -z "$txfold" ]; then
  (cd "$root" && swift build -c release --product txfold >&2)
  txfold="$root/.build/release/txfold"
fi
export TXFOLD="$txfold"  # load.sh runs it too

work="$(mktemp -d)"
failures=0
# shellcheck source=private_server.sh
. "$here/private_server.sh"

cleanup() {
  local status=$?
  stop_private_postgres "$status"
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# --- The dumps ---------------------------------------------------------------------------
# Night 1: a bank's multi-account dump from txfold gen, then records that are awkward on
# the way into a database: account ids with a backslash, a quote, a comma and a newline,
# non-ASCII, an integer id; a description with control characters, "\N" (NULL in COPY's
# text format), a literal "\u0000" and a real U+0000 (which jsonb cannot hold); a
# 38-digit amount (past a double's 17 digits and Python's default 28); a JSON number
# amount with an exponent; and lines txfold rejects (not JSON, no account, a negative
# amount) and a blank line, which must not count anywhere.
"$txfold" gen --count 5000 --seed 7 --accounts 80 -o "$work/night1.jsonl"
cat >> "$work/night1.jsonl" <<'EOF'
{"arrangementId":"B\\back\"quote","id":"edge-1","description":"ctl \u0001\u0002 tab\t \\N lit \\u0000 nul \u0000 end","transactionAmountCurrency":{"amount":"0.000000000000000001","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2024-12-31T10:00:00","state":"COMPLETED"}
{"arrangementId":"Bé😀","id":"edge-2","transactionAmountCurrency":{"amount":12.5,"currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2024-12-31T10:00:00+01:00","state":"PENDING"}
{"arrangementId":"Bé😀","id":"edge-3","transactionAmountCurrency":{"amount":1.5e3,"currencyCode":"GBP"},"creditDebitIndicator":"DBIT","creationTime":"2024-12-30","state":"COMPLETED"}
{"arrangementId":42,"id":4,"transactionAmountCurrency":{"amount":"7.00","currencyCode":"JPY"},"creditDebitIndicator":"CRDT","creationTime":"2024-12-31T10:00:00Z","state":"COMPLETED"}
{"arrangementId":"C,1\n2","id":"edge-5","transactionAmountCurrency":{"amount":"3","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2024-12-31T10:00:00","state":"COMPLETED"}
{"arrangementId":"Z38","id":"edge-6","transactionAmountCurrency":{"amount":"12345678901234567890.123456789012345678","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2024-12-31T10:00:00","state":"COMPLETED"}
{"arrangementId":"Z38","id":"edge-7","transactionAmountCurrency":{"amount":"0.000000000000000001","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2024-12-31T11:00:00","state":"COMPLETED"}
{"arrangementId":"A0000000000","id":"edge-8","transactionAmountCurrency":{"amount":"-0","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2024-12-31T10:00:00","state":"COMPLETED"}
{"arrangementId":"A0000000001","id":"edge-9",

{"id":"edge-10","transactionAmountCurrency":{"amount":"1","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2024-12-31T10:00:00","state":"COMPLETED"}
{"arrangementId":"A0000000002","id":"edge-11","transactionAmountCurrency":{"amount":"-5","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2024-12-31T10:00:00","state":"COMPLETED"}
EOF
# Night 2: the same history and one more day: an account seen before and a new one.
cp "$work/night1.jsonl" "$work/night2.jsonl"
cat >> "$work/night2.jsonl" <<'EOF'
{"arrangementId":42,"id":5,"transactionAmountCurrency":{"amount":"1000","currencyCode":"JPY"},"creditDebitIndicator":"DBIT","creationTime":"2025-01-01T09:00:00Z","state":"PENDING"}
{"arrangementId":"NEW-1","id":"edge-12","transactionAmountCurrency":{"amount":"0.10","currencyCode":"CHF"},"creditDebitIndicator":"CRDT","creationTime":"2025-01-01T09:00:00Z","state":"PENDING"}
EOF

for night in night1 night2; do
  "$txfold" group --quiet --per-account --format jsonl "$work/$night.jsonl" -o "$work/$night.accounts.jsonl" \
    --stats "$work/$night.stats.json"
done
accounts_of() {  # the "accounts" of a run's --stats document (the jsonl holds only account lines)
  grep -o '"accounts":[0-9]*' "$1" | tail -n 1 | cut -d: -f2
}
accounts1="$(accounts_of "$work/night1.stats.json")"
accounts2="$(accounts_of "$work/night2.stats.json")"
echo "Dumps: night 1 $(python3 "$here/expected.py" --summary "$work/night1.jsonl")"
echo "       night 2 $(python3 "$here/expected.py" --summary "$work/night2.jsonl")"

# txfold's own accounting must agree with the oracle's before either is trusted, and its
# jsonl must hold one line per account and nothing else.
for night in night1 night2; do
  python3 "$here/expected.py" "$work/$night.jsonl" --stats "$work/$night.stats.json" \
    --accounts "$work/$night.accounts.jsonl" --label "txfold's stats for $night" > /dev/null ||
    fail "txfold's --stats or jsonl for $night"
done

# --- SQLite ----------------------------------------------------------------------------------
echo "SQLite (Python $(python3 -c 'import sqlite3, sys; print(sys.version.split()[0], "· SQLite", sqlite3.sqlite_version)')):"
db="$work/accounts.db"
sqlite_state() {  # rows, earliest loaded_at, latest loaded_at
  python3 - "$db" <<'EOF'
import sqlite3, sys
print(*sqlite3.connect(sys.argv[1]).execute(
    "SELECT count(*), min(loaded_at), max(loaded_at) FROM txfold_accounts").fetchone(), sep="|")
EOF
}
sqlite_check() {  # night label
  python3 "$here/load_sqlite.py" check "$db" --counts-csv "$work/sqlite-$1.counts.csv" \
    --totals-csv "$work/sqlite-$1.totals.csv"
  python3 "$here/expected.py" "$work/$1.jsonl" --check-counts "$work/sqlite-$1.counts.csv" \
    --check-totals "$work/sqlite-$1.totals.csv" --label "  SQLite, $1" || fail "SQLite after $1"
}

python3 "$here/load_sqlite.py" load "$db" "$work/night1.accounts.jsonl" --stats "$work/night1.stats.json" | sed 's/^/  /'
IFS='|' read -r rows _ first_max <<< "$(sqlite_state)"
[ "$rows" -eq "$accounts1" ] || fail "SQLite holds $rows rows after night 1, expected $accounts1"
sqlite_check night1
python3 "$here/load_sqlite.py" load "$db" "$work/night1.accounts.jsonl" --stats "$work/night1.stats.json" | sed 's/^/  /'
IFS='|' read -r rows again_min _ <<< "$(sqlite_state)"
[ "$rows" -eq "$accounts1" ] || fail "SQLite: the rerun left $rows rows, expected still $accounts1"
# ISO 8601 in UTC with a fixed width compares as text.
[[ "$again_min" > "$first_max" ]] || fail "SQLite: the rerun did not update every loaded_at ($again_min <= $first_max)"
echo "  rerun of night 1: still $rows rows, every loaded_at updated"
python3 "$here/load_sqlite.py" load "$db" "$work/night2.accounts.jsonl" --stats "$work/night2.stats.json" | sed 's/^/  /'
IFS='|' read -r rows _ _ <<< "$(sqlite_state)"
[ "$rows" -eq "$accounts2" ] || fail "SQLite holds $rows rows after night 2, expected $accounts2"
sqlite_check night2

# A bad line (not JSON, an older txfold's stats line, a line cut short) stops the load with
# one line on standard error naming the file and line, no traceback, and loads nothing.
bad_lines=('{"account":"X","count":1' '{"stats":{"lines":1,"accepted":1,"rejected":0,"duplicates":0,"accounts":1}}' '[1]')
for bad in "${bad_lines[@]}"; do
  { head -n 2 "$work/night2.accounts.jsonl"; printf '%s\n' "$bad"; } > "$work/bad.accounts.jsonl"
  status=0
  python3 "$here/load_sqlite.py" load "$work/bad.db" "$work/bad.accounts.jsonl" > /dev/null 2> "$work/bad.err" || status=$?
  if [ "$status" -ne 1 ] || [ "$(wc -l < "$work/bad.err")" -ne 1 ] || grep -q Traceback "$work/bad.err" ||
    ! grep -q 'bad.accounts.jsonl, line 3: ' "$work/bad.err"; then
    fail "SQLite: a bad line gave exit $status and: $(head -c 300 "$work/bad.err")"
  elif [ -f "$work/bad.db" ] && [ "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM txfold_accounts").fetchone()[0])' "$work/bad.db")" != 0 ]; then
    fail "SQLite: a load with a bad line wrote rows"
  fi
done
echo "  a bad line: one line on standard error, exit 1, nothing loaded ($(cat "$work/bad.err"))"

# --- PostgreSQL ------------------------------------------------------------------------------
if [ "${TXFOLD_PG_TESTS:-}" != "1" ]; then
  echo "PostgreSQL: skipped (set TXFOLD_PG_TESTS=1 to start a private server and test it too)"
else
  if ! start_private_postgres "$work"; then
    echo "FAIL: TXFOLD_PG_TESTS=1, but no private PostgreSQL server could be started" >&2
    exit 1
  fi
  "$PSQL" -X -q -v ON_ERROR_STOP=1 -c 'CREATE DATABASE txfold_test'
  export PGDATABASE=txfold_test
  echo "PostgreSQL ($("$PSQL" -X -At -c 'SHOW server_version' | cut -d' ' -f1), private server on $PGHOST, as ${server_user:-$(id -un)}):"

  sql() { "$PSQL" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
  pg_check() {  # night label
    "$PSQL" -X -q --csv -v counts_csv="$work/pg-$1.counts.csv" -v totals_csv="$work/pg-$1.totals.csv" \
      -f "$here/check.sql"
    python3 "$here/expected.py" "$work/$1.jsonl" --check-counts "$work/pg-$1.counts.csv" \
      --check-totals "$work/pg-$1.totals.csv" --label "  PostgreSQL, $1" || fail "PostgreSQL after $1"
  }

  "$here/load.sh" "$work/night1.jsonl" | sed 's/^/  /'
  IFS='|' read -r rows first_max <<< "$(sql 'SELECT count(*), max(loaded_at) FROM txfold_accounts')"
  [ "$rows" -eq "$accounts1" ] || fail "PostgreSQL holds $rows rows after night 1, expected $accounts1"
  pg_check night1

  # The real U+0000 became U+FFFD, so the line could be jsonb; the literal text survived.
  description="$(sql "SELECT report #>> '{sections,0,groups,0,transactions,0,description}'
                      FROM txfold_accounts WHERE account = 'B\\back\"quote'")"
  expected_description="$(printf 'ctl \001\002 tab\t \\N lit \\u0000 nul \357\277\275 end')"
  [ "$description" = "$expected_description" ] ||
    fail "PostgreSQL: the awkward description came back as $(printf '%q' "$description")"

  "$here/load.sh" "$work/night1.jsonl" | sed 's/^/  /'
  IFS='|' read -r rows updated <<< "$(sql "SELECT count(*), count(*) FILTER (WHERE loaded_at > '$first_max')
                                           FROM txfold_accounts")"
  [ "$rows" -eq "$accounts1" ] || fail "PostgreSQL: the rerun left $rows rows, expected still $accounts1"
  [ "$updated" -eq "$rows" ] || fail "PostgreSQL: the rerun updated loaded_at in $updated of $rows rows"
  echo "  rerun of night 1: still $rows rows, loaded_at updated in all $updated"
  pg_check night1

  "$here/load.sh" "$work/night2.jsonl" | sed 's/^/  /'
  rows="$(sql 'SELECT count(*) FROM txfold_accounts')"
  [ "$rows" -eq "$accounts2" ] || fail "PostgreSQL holds $rows rows after night 2, expected $accounts2"
  pg_check night2
  [ "$(sql "SELECT txn_count FROM txfold_accounts WHERE account = '42'")" = 2 ] ||
    fail "PostgreSQL: account 42 was not updated by night 2"
  [ "$(sql 'SELECT count(*) FROM txfold_accounts_staging')" = 0 ] || fail "PostgreSQL: staging was left with lines"

  # A count that differs from --stats fails the load with both real numbers, and loads nothing.
  status=0
  errors="$(head -n 2 "$work/night2.accounts.jsonl" |
    "$PSQL" -X -q -v ON_ERROR_STOP=1 -v expected_accounts=3 -f "$here/load.sql" 2>&1 > /dev/null)" || status=$?
  if [ "$status" -eq 0 ] || [[ "$errors" != *"the input holds 2 account lines, but txfold's --stats says 3 accounts"* ]]; then
    fail "PostgreSQL: a count mismatch gave exit $status and: $errors"
  fi
  [ "$(sql 'SELECT count(*) FROM txfold_accounts')" -eq "$accounts2" ] || fail "PostgreSQL: a refused load changed the table"
  echo "  a count that differs from --stats: refused, $(grep -o 'the input holds [^;]*' <<< "$errors")"

  # Both databases summed the same jsonb/JSON with their own exact arithmetic: the
  # results must agree to the byte (same digits, same scale).
  for kind in counts totals; do
    cmp -s "$work/pg-night2.$kind.csv" "$work/sqlite-night2.$kind.csv" ||
      fail "PostgreSQL's and SQLite's $kind differ: $(diff "$work/pg-night2.$kind.csv" "$work/sqlite-night2.$kind.csv" | head -n 5)"
  done
  echo "  PostgreSQL's and SQLite's counts and totals are the same bytes"
fi

if [ "$failures" -ne 0 ]; then
  echo "Examples/postgres: $failures check(s) failed."
  exit 1
fi
echo "Examples/postgres: every account's count and totals equal the dump's."
