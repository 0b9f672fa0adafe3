#!/usr/bin/env bash
# per-account-queries.sh — times `txfold summary --per-account` and `txfold list --per-account`
# beside DuckDB doing the same work, on the dumps compare.sh makes (2M records over 200,000
# skewed accounts, in every order), and checks the summary's exact sums against DuckDB's.
#
# Usage:
#   Benchmarks/per-account-queries.sh [WORK_DIR]
#
# What it does:
#   1. builds txfold in release unless TXFOLD names a binary (BASELINE may name another build,
#      timed beside it: a before/after);
#   2. makes `txfold gen --count $COUNT --seed $SEED --accounts $ACCOUNTS --order O` for each
#      order in $ORDERS (reused when present: compare.sh's names);
#   3. installs DuckDB into WORK_DIR/venv from PyPI when missing;
#   4. runs, $RUNS rounds, under /usr/bin/time, with TXFOLD_MAX_KERNEL=avx2 and --threads $THREADS:
#        txfold summary --per-account --format csv --memory-limit $LIMIT   (by category)
#        txfold list --per-account --format csv --memory-limit $LIMIT
#        DuckDB (Benchmarks/duckdb_account_queries.py): the same grouping, or every row ordered
#        by account then newest first, as one query to CSV; its query's seconds in-process;
#   5. prints per order the median wall, CPU and peak RSS, and each txfold / DuckDB-query ratio;
#      checks that the builds wrote the same bytes and that every (account, category, currency)
#      has DuckDB's count and exact income and expense. Exit 1 on a mismatch.
#
# Environment: WORK, COUNT=2000000, ACCOUNTS=200000, SEED=7, RUNS=3, LIMIT=96MiB, THREADS=2,
# ORDERS="shuffled account day", TXFOLD, BASELINE.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${WORK:-/tmp/txfold-compare}}
count=${COUNT:-2000000}
accounts=${ACCOUNTS:-200000}
seed=${SEED:-7}
runs=${RUNS:-3}
limit=${LIMIT:-96MiB}
threads=${THREADS:-2}
orders=${ORDERS:-shuffled account day}
say() { printf '==> %s\n' "$*" >&2; }
mkdir -p "$work"

if [ -z "${TXFOLD:-}" ]; then
  if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
  say "building txfold (release)"
  swift build -c release --product txfold --package-path "$repo" --scratch-path "$repo/.build-release" > /dev/null
  TXFOLD=$repo/.build-release/release/txfold
fi
export TXFOLD_MAX_KERNEL=avx2

venv=$work/venv
python=$venv/bin/python
if ! "$python" -c 'import duckdb' 2> /dev/null; then
  say "installing DuckDB into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$python" -m pip install -q --disable-pip-version-check duckdb
fi

out=$work/per-account-out
rm -rf "$out"
mkdir -p "$out/tmp"
builds=(txfold)
binaries=("$TXFOLD")
if [ -n "${BASELINE:-}" ]; then
  builds+=(baseline)
  binaries+=("$BASELINE")
fi

median() {
  awk "{ print $2 }" "$1" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '\nper-account-queries.sh — %s; %s, %s cores\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" "$(nproc)"
printf 'cpu flags: %s\n' "$(grep -m1 -o -w -E 'sse4_2|avx|avx2|bmi2|avx512f|avx512_vbmi2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
printf 'txfold %s; DuckDB %s; %s records, %s accounts (seed %s); --threads %s, --memory-limit %s; %s rounds\n' \
  "$(git -C "$repo" describe --always --dirty 2> /dev/null || echo '?')" \
  "$("$python" -c 'import duckdb; print(duckdb.__version__)')" "$count" "$accounts" "$seed" "$threads" "$limit" "$runs"

status=0
for order in $orders; do
  dump=$work/dump-$count-seed$seed-accounts$accounts-$order.jsonl
  if [ ! -s "$dump" ]; then
    say "generating $dump"
    "$TXFOLD" gen --count "$count" --seed "$seed" --accounts "$accounts" --order "$order" -o "$dump.tmp"
    mv "$dump.tmp" "$dump"
  fi
  cat "$dump" > /dev/null
  rm -f "$out"/times-*
  for ((round = 1; round <= runs; round++)); do
    for job in summary list; do
      for i in "${!builds[@]}"; do
        say "$order, round $round/$runs: ${builds[i]} $job"
        /usr/bin/time -f '%e %U %S %M' -o "$out/time" "${binaries[i]}" "$job" --per-account --format csv \
          --memory-limit "$limit" --threads "$threads" --temp-dir "$out/tmp" -q -o "$out/$job-${builds[i]}.csv" "$dump"
        tail -n 1 "$out/time" >> "$out/times-$job-${builds[i]}"
      done
      say "$order, round $round/$runs: DuckDB $job"
      /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$python" "$repo/Benchmarks/duckdb_account_queries.py" \
        "$job" "$dump" "$out/$job-duckdb.csv" >> "$out/query-$job"
      tail -n 1 "$out/time" >> "$out/times-$job-duckdb"
    done
  done
  printf '\n### %s\n\n' "$order"
  printf '| %-28s | %11s | %10s | %10s | %14s |\n' command "median wall" "median CPU" "peak RSS" "/ DuckDB query"
  printf '|%s|%s:|%s:|%s:|%s:|\n' "------------------------------" "------------" "-----------" "-----------" "---------------"
  for job in summary list; do
    query=$(sort -g "$out/query-$job" | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
    for build in "${builds[@]}" duckdb; do
      wall=$(median "$out/times-$job-$build" '$1')
      ratio=$(awk -v a="$wall" -v b="$query" 'BEGIN { printf "%.2f", a / b }')
      [ "$build" = duckdb ] && ratio="query $query s"
      printf '| %-28s | %9s s | %8s s | %6.0f MiB | %14s |\n' "$build $job --per-account" "$wall" \
        "$(median "$out/times-$job-$build" '$2 + $3')" "$(median "$out/times-$job-$build" '$4 / 1024')" "$ratio"
    done
    rm -f "$out/query-$job"
  done
  if [ -n "${BASELINE:-}" ]; then
    for job in summary list; do
      cmp -s "$out/$job-txfold.csv" "$out/$job-baseline.csv" || { echo "MISMATCH: $order $job: the builds differ"; status=1; }
    done
  fi
  python3 - "$out/summary-txfold.csv" "$out/summary-duckdb.csv" << 'EOF' || status=1
# Every (account, category, currency): txfold's count, income and expense equal DuckDB's sums of
# its CRDT and DBIT rows, exactly (decimal.Decimal).
import csv, sys
from decimal import Decimal
ours = {}
for row in csv.DictReader(open(sys.argv[1], newline="")):
    ours[(row["account"], row["key"], row["currency"])] = (int(row["count"]), Decimal(row["income"]), Decimal(row["expense"]))
theirs = {}
for row in csv.DictReader(open(sys.argv[2], newline="")):
    # A category absent, null or empty is the missing key, which txfold writes as (none).
    key = (row["account"], row["category"] or "(none)", row["currency"].upper())
    count, income, expense = theirs.get(key, (0, Decimal(0), Decimal(0)))
    amount = Decimal(row["amount"])
    if row["creditDebitIndicator"] == "CRDT": income += amount
    else: expense -= amount
    theirs[key] = (count + int(row["count"]), income, expense)
if ours != theirs:
    missing = set(ours) ^ set(theirs)
    wrong = [k for k in set(ours) & set(theirs) if ours[k] != theirs[k]]
    print(f"MISMATCH: summary sums differ from DuckDB's: {len(missing)} keys apart, {len(wrong)} sums, e.g. {(sorted(missing) + wrong)[:3]}")
    sys.exit(1)
print(f"summary sums equal DuckDB's: {len(ours)} (account, category, currency) cells")
EOF
done
if [ -n "$(ls -A "$out/tmp")" ]; then echo "MISMATCH: the spill directory was left behind"; status=1; fi
[ $status -eq 0 ] && echo OK
exit $status
