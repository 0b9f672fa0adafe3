#!/usr/bin/env bash
# Runs a week of nights through nightly.sh the way cron or systemd would (no terminal, no standard
# input), each night's export a seventh of a `txfold gen --resend` dump, its changed accounts loaded
# into PostgreSQL (a private server, when one can be had) or else SQLite. After the week the table
# must equal a full `--per-account --dedupe` run over all seven exports loaded into a fresh one. On
# the way, a cut-off export (74), a changed setting and too many rejects (65), a SIGTERM (143) and a failed load each keep
# the state, a night without its state refuses to start the history again (66), a night started
# while another runs does nothing (75), and every --stats file says how the night ended. Also checks
# that the cron line and the systemd units name nightly.sh and that they parse (systemd-analyze).
#   TXFOLD=path/to/txfold Examples/nightly/test.sh          # NIGHTLY_DB=sqlite: skip PostgreSQL
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
postgres="$(cd "$here/../postgres" && pwd)"
txfold="${TXFOLD:-txfold}"
export TXFOLD="$txfold"
work="$(mktemp -d)"
# shellcheck source=../postgres/private_server.sh
. "$postgres/private_server.sh"
trap 'status=$?; stop_private_postgres "$status"; rm -rf "$work"' EXIT
mkdir "$work/reports"
reports="$work/reports"

fail() { echo "nightly test: $*" >&2; exit 1; }
stat_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]))' "$reports/daily.stats.json" "$1"; }

# The week: re-sent records (the same transaction again, or its COMPLETED version) land on later
# nights, as a bank's exports do.
"$txfold" gen --count 14000 --accounts 150 --resend 0.3 --seed 7 -o "$work/week.jsonl"
split -n l/7 -d -a 1 "$work/week.jsonl" "$work/night"   # night0 … night6

# The database: PostgreSQL where a private server starts, else SQLite (load_sqlite.py).
if [ "${NIGHTLY_DB:-}" != sqlite ] && start_private_postgres "$work" > /dev/null 2>&1; then
  db=postgres
  "$PSQL" -X -q -v ON_ERROR_STOP=1 -c 'CREATE DATABASE nightly' -c 'CREATE DATABASE fresh'
  export PGDATABASE=nightly
  load=("$postgres/upsert.sh")
  # Each account's row as text, to compare two databases (jsonb prints its keys in one order).
  rows_of() { PGDATABASE="$1" "$PSQL" -X -At -c 'SELECT account, txn_count, report::text FROM txfold_accounts ORDER BY account'; }
else
  db=sqlite
  load=(python3 "$postgres/load_sqlite.py" upsert "$work/nightly.db")
  rows_of() {
    python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute("SELECT account, txn_count, report FROM txfold_accounts ORDER BY account"):
    print(*row, sep="|")' "$work/$1.db"
  }
fi
export LOAD="${load[*]}"

good_night() {  # good_night N [VAR=VALUE…]: night N publishes, loads and moves the state on
  local night="$1"
  shift
  env "$@" "$here/nightly.sh" "$work/night$night" "$reports" < /dev/null > "$work/out" 2> "$work/err" \
    || fail "night $night exited $?: $(cat "$work/err")"
  [ "$(stat_of exitStatus)" = 0 ] || fail "night $1: stats exitStatus $(stat_of exitStatus)"
  [ "$(stat_of changedAccounts)" = "$(grep -c '' "$reports/changed.jsonl")" ] || fail "night $1: changedAccounts"
  cp "$reports/changed.jsonl" "$work/published.jsonl"
  cp "$reports/txfold.state" "$work/state"
}
kept() {  # kept NIGHT STATUS: a failed night left the state (and, when txfold failed, the published file)
  cmp -s "$reports/txfold.state" "$work/state" || fail "$1 replaced the state"
  [ "$2" = 1 ] || cmp -s "$reports/changed.jsonl" "$work/published.jsonl" || fail "$1 replaced changed.jsonl"
  [ ! -e "$reports/txfold.state.next" ] || fail "$1 left txfold.state.next"
}
failed_night() {  # failed_night LABEL STATUS EXPORT [VAR=VALUE…]: exits STATUS, keeps everything
  local label="$1" expected="$2" export_file="$3" status=0
  shift 3
  env "$@" "$here/nightly.sh" "$export_file" "$reports" < /dev/null > /dev/null 2> "$work/err" || status=$?
  [ "$status" = "$expected" ] || fail "$label exited $status, not $expected: $(cat "$work/err")"
  [ "$(stat_of exitStatus)" = "$expected" ] || [ "$expected" = 1 ] || fail "$label: stats exitStatus $(stat_of exitStatus)"
  kept "$label" "$expected"
}

# The history starts from the first export only when told to.
good_night 0 FIRST_NIGHT=yes
good_night 1
# The same export again: the state already holds it, so no account changed.
good_night 1
[ "$(stat_of changedAccounts)" = 0 ] || fail "night 1 again changed $(stat_of changedAccounts) accounts"
good_night 2

# The state went missing (a restore gone wrong, a disk not mounted): the night refuses (66)
# instead of starting the history again from tonight's export, and publishes nothing.
mv "$reports/txfold.state" "$work/state.aside"
status=0
"$here/nightly.sh" "$work/night3" "$reports" < /dev/null > /dev/null 2> "$work/err" || status=$?
[ "$status" = 66 ] || fail "a night without its state exited $status: $(cat "$work/err")"
grep -q "FIRST_NIGHT=yes" "$work/err" || fail "a night without its state did not say how to start: $(cat "$work/err")"
[ ! -e "$reports/txfold.state" ] && [ ! -e "$reports/txfold.state.next" ] || fail "a night without its state wrote one"
cmp -s "$reports/changed.jsonl" "$work/published.jsonl" || fail "a night without its state replaced changed.jsonl"
mv "$work/state.aside" "$reports/txfold.state"

# The export was cut off mid-write: 74.
head -c 100000 "$work/night3" > "$work/night3.cut"
failed_night "a cut-off export" 74 "$work/night3.cut"
grep -q "cut off" "$work/err" || fail "the cut-off night did not say so: $(cat "$work/err")"
# The job's settings changed (here the time zone): the state was made with others, 65.
failed_night "a changed setting" 65 "$work/night3" TXFOLD_ARGS="--timezone UTC"
grep -q "settings that made it" "$work/err" || fail "a changed setting did not say so: $(cat "$work/err")"
# A refused state stops the run before it reads: the rejects file is last night's, and the
# message must not send the operator there.
! grep -q "see $reports/daily.rejects.jsonl" "$work/err" || fail "a refused state pointed at last night's rejects: $(cat "$work/err")"
grep -q "wrote no rejects file" "$work/err" || fail "a refused state did not say it wrote no rejects: $(cat "$work/err")"
# Too many rejected lines: tonight's rejects file holds them, and the message points there.
{ cat "$work/night3"; echo '{"broken":'; } > "$work/night3.bad"
failed_night "too many rejects" 65 "$work/night3.bad" MAX_REJECT_RATE=0
grep -q "see $reports/daily.rejects.jsonl" "$work/err" || fail "too many rejects did not point at them: $(cat "$work/err")"
grep -q '"line":' "$reports/daily.rejects.jsonl" || fail "too many rejects: tonight's rejects file is empty"
# The database refused the load: the loader's status, and the night must be run again.
failed_night "a failed load" 1 "$work/night3" LOAD=false
grep -q "run this export again" "$work/err" || fail "a failed load did not say to run it again: $(cat "$work/err")"
good_night 3

# Stopped by SIGTERM (systemctl stop) while waiting for an export still being written: 143.
mkfifo "$work/night4.fifo"
"$here/nightly.sh" "$work/night4.fifo" "$reports" < /dev/null > /dev/null 2> "$work/err" &
job=$!
exec 3> "$work/night4.fifo"   # the writer: txfold's open of the FIFO returns, then it waits for data
sleep 1
# Meanwhile the scheduler starts another night (cron does not wait for the last one): it does
# nothing, says why, and leaves the running night's state, report and stats alone (75).
cp "$reports/daily.stats.json" "$work/stats.before"
status=0
"$here/nightly.sh" "$work/night4" "$reports" < /dev/null > /dev/null 2> "$work/err" || status=$?
[ "$status" = 75 ] || fail "a night started while another ran exited $status: $(cat "$work/err")"
grep -q "another night is still running" "$work/err" || fail "an overlapping night did not say why: $(cat "$work/err")"
kept "an overlapping night" 75
cmp -s "$reports/daily.stats.json" "$work/stats.before" || fail "an overlapping night wrote the stats"
pkill -TERM -P "$job" || true   # its one child: txfold, waiting for the export
status=0
wait "$job" || status=$?
exec 3>&-
[ "$status" = 143 ] || fail "a stopped night exited $status: $(cat "$work/err")"
[ "$(stat_of exitStatus)" = 143 ] || fail "the stopped night: stats exitStatus $(stat_of exitStatus)"
kept "the stopped night" 143
[ "$(find "$reports" -name '.*' | wc -l)" = 0 ] || fail "the stopped night left temporary files"

good_night 4
good_night 5
good_night 6

# The table after the week is what one full run over every export, loaded fresh, gives.
"$txfold" group --per-account --format jsonl --dedupe -q "$work"/night[0-6] -o "$work/full.jsonl" --stats "$work/full.stats.json"
if [ "$db" = postgres ]; then
  PGDATABASE=fresh "$postgres/upsert.sh" "$work/full.jsonl" "$work/full.stats.json" > /dev/null
else
  python3 "$postgres/load_sqlite.py" upsert "$work/fresh.db" "$work/full.jsonl" "$work/full.stats.json" > /dev/null
fi
rows_of nightly > "$work/nightly.rows"
rows_of fresh > "$work/fresh.rows"
[ -s "$work/fresh.rows" ] || fail "the fresh load holds no row"
cmp -s "$work/nightly.rows" "$work/fresh.rows" ||
  fail "$db after the week differs from a fresh full load: $(diff "$work/nightly.rows" "$work/fresh.rows" | head -c 600)"

# The scheduler files run this script.
grep -q 'nightly.sh' "$here/crontab" || fail "the cron line does not run nightly.sh"
grep -q '^ExecStart=.*nightly.sh' "$here/txfold-nightly.service" || fail "the service does not run nightly.sh"
if command -v systemd-analyze > /dev/null; then
  mkdir -p "$work/units"
  sed "s|/opt/txfold/nightly.sh|$here/nightly.sh|; s|^User=.*|User=root|" "$here/txfold-nightly.service" \
    > "$work/units/txfold-nightly.service"
  cp "$here/txfold-nightly.timer" "$work/units/"
  systemd-analyze verify "$work/units/txfold-nightly.timer" "$work/units/txfold-nightly.service" 2>&1 \
    | grep -v -e 'Failed to' -e 'not found' -e '^$' -e 'Cannot' && true
fi
echo "Examples/nightly: a week of nights into $db ($(wc -l < "$work/fresh.rows") accounts) equals a fresh full load;" \
  "a missing state (66), a cut-off export (74), a changed setting and too many rejects (65), a failed load, an overlapping night (75)" \
  "and a SIGTERM (143) kept the state"
