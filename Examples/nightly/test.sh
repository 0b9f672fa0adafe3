#!/usr/bin/env bash
# Runs a week of nights through nightly.sh the way cron or systemd would (no terminal, no
# standard input) and checks what each night leaves: a good night publishes, a cut-off export
# (exit 74), an empty one (65) and a SIGTERM (143) keep the previous report, and every night's
# --stats file says how it ended. Also checks that the cron line and the systemd units name
# nightly.sh and that the timer and service parse (systemd-analyze, where it exists).
#   TXFOLD=path/to/txfold Examples/nightly/test.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
txfold="${TXFOLD:-txfold}"
export TXFOLD="$txfold"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/reports"

fail() { echo "nightly test: $*" >&2; exit 1; }
stat_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/reports/daily.stats.json" "$1"; }

night() {  # night NAME SEED: a good export
  "$txfold" gen --count 3000 --seed "$2" -o "$work/$1.jsonl"
}

# Nights 1-3: good exports publish, each replacing the last.
for n in 1 2 3; do
  night "night$n" "$n"
  "$here/nightly.sh" "$work/night$n.jsonl" "$work/reports" < /dev/null > "$work/out" 2> "$work/err" \
    || fail "night $n exited $?: $(cat "$work/err")"
  [ "$(stat_of exitStatus)" = 0 ] || fail "night $n: stats exitStatus $(stat_of exitStatus)"
  [ "$(stat_of accepted)" = 3000 ] || fail "night $n: $(stat_of accepted) accepted"
done
"$txfold" group "$work/night3.jsonl" --format csv -q -o "$work/expected.csv"
cmp -s "$work/reports/daily.csv" "$work/expected.csv" || fail "night 3's report is not txfold's"
cp "$work/reports/daily.csv" "$work/published.csv"

# Night 4: the export was cut off mid-write: 74, yesterday's report kept, stats say why.
night night4 4
head -c 200000 "$work/night4.jsonl" > "$work/night4.cut.jsonl"
status=0
"$here/nightly.sh" "$work/night4.cut.jsonl" "$work/reports" < /dev/null > /dev/null 2> "$work/err" || status=$?
[ "$status" = 74 ] || fail "a cut-off export exited $status: $(cat "$work/err")"
grep -q "cut off" "$work/err" || fail "night 4 did not say the export is cut off: $(cat "$work/err")"
[ "$(stat_of exitStatus)" = 74 ] || fail "night 4: stats exitStatus $(stat_of exitStatus)"
cmp -s "$work/reports/daily.csv" "$work/published.csv" || fail "night 4 replaced the report"

# Night 5: an empty export is a broken one (MIN_ACCEPTED): 65, report kept.
: > "$work/night5.jsonl"
status=0
MIN_ACCEPTED=100 "$here/nightly.sh" "$work/night5.jsonl" "$work/reports" < /dev/null > /dev/null 2> "$work/err" \
  || status=$?
[ "$status" = 65 ] || fail "an empty export exited $status: $(cat "$work/err")"
[ "$(stat_of exitStatus)" = 65 ] || fail "night 5: stats exitStatus $(stat_of exitStatus)"
cmp -s "$work/reports/daily.csv" "$work/published.csv" || fail "night 5 replaced the report"

# Night 6: stopped by SIGTERM (systemctl stop) while waiting for an export still being written:
# 143, report kept, no temporary file left.
mkfifo "$work/night6.fifo"
"$here/nightly.sh" "$work/night6.fifo" "$work/reports" < /dev/null > /dev/null 2> "$work/err" &
job=$!
exec 3> "$work/night6.fifo"   # the writer: txfold's open of the FIFO returns, then it waits for data
sleep 1
pkill -TERM -P "$job" -f "txfold group" || true
status=0
wait "$job" || status=$?
exec 3>&-
[ "$status" = 143 ] || fail "a stopped night exited $status: $(cat "$work/err")"
[ "$(stat_of exitStatus)" = 143 ] || fail "night 6: stats exitStatus $(stat_of exitStatus)"
cmp -s "$work/reports/daily.csv" "$work/published.csv" || fail "night 6 replaced the report"
leftovers="$(find "$work/reports" -name '.*' | wc -l)"
[ "$leftovers" = 0 ] || fail "night 6 left temporary files"

# Night 7: good again.
night night7 7
"$here/nightly.sh" "$work/night7.jsonl" "$work/reports" < /dev/null > /dev/null 2> "$work/err" \
  || fail "night 7 exited $?: $(cat "$work/err")"
[ "$(stat_of exitStatus)" = 0 ] || fail "night 7: stats exitStatus $(stat_of exitStatus)"

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
echo "Examples/nightly: a week of nights (publish, cut-off 74, empty 65, SIGTERM 143) as expected"
