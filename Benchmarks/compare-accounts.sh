#!/usr/bin/env bash
# compare-accounts.sh — times `txfold group --per-account` beside DuckDB doing the same work on one
# multi-account dump, and checks that every account's count and exact totals agree.
#
# Usage:
#   Benchmarks/compare-accounts.sh [WORK_DIR]
#
# What it does:
#   1. builds txfold in release (`swift build -c release --scratch-path .build-release`) unless
#      TXFOLD names a binary;
#   2. generates `txfold gen --count $COUNT --seed $SEED --accounts $ACCOUNTS` (skewed: a few
#      corporate accounts, a long tail) into WORK_DIR, and a copy sorted by account (reused later);
#   3. installs DuckDB into WORK_DIR/venv from PyPI when missing;
#   4. runs, $RUNS rounds, under /usr/bin/time:
#        txfold group --per-account --format jsonl --memory-limit $LIMIT   (the bounded run)
#        txfold group --per-account --format jsonl --memory-limit 64G      (no limit in practice)
#        txfold ... --memory-limit $LIMIT on the input sorted by account
#        txfold ... --memory-limit $LIMIT --sorted-by-account on it (folded account by account, no runs)
#        DuckDB: group by account, state, day, indicator; count, latest, the 20 latest members
#        (max_by), exact totals per currency (DECIMAL(38,18)); one JSON line per account ordered
#        by account, `COPY ... TO (FORMAT json)` (Benchmarks/duckdb_accounts.py)
#   5. prints median wall, CPU and peak RSS, the ratio txfold/DuckDB, and checks the outputs:
#      the four txfold runs are the same bytes, and every account's count and totals equal
#      DuckDB's (Benchmarks/check_accounts.py, exact decimals). Exit 1 on a mismatch.
#
# Environment: WORK, COUNT=2000000, ACCOUNTS=200000, SEED=7, RUNS=3, LIMIT=96MiB, TXFOLD.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${WORK:-/tmp/txfold-accounts}}
count=${COUNT:-2000000}
accounts=${ACCOUNTS:-200000}
seed=${SEED:-7}
runs=${RUNS:-3}
limit=${LIMIT:-96MiB}
say() { printf '==> %s\n' "$*" >&2; }
mkdir -p "$work"

if [ -z "${TXFOLD:-}" ]; then
  if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
  say "building txfold (release)"
  swift build -c release --product txfold --package-path "$repo" --scratch-path "$repo/.build-release" > /dev/null
  TXFOLD=$repo/.build-release/release/txfold
fi

dump=$work/dump-$count-$accounts-$seed.jsonl
# A new name: copies made by the earlier line sort were not sorted by account.
sorted=$work/dump-$count-$accounts-$seed.by-account.jsonl
if [ ! -s "$dump" ]; then
  say "generating $dump"
  "$TXFOLD" gen --count "$count" --seed "$seed" --accounts "$accounts" -o "$dump.tmp"
  mv "$dump.tmp" "$dump"
fi
if [ ! -s "$sorted" ]; then
  say "sorting by account"
  # By the arrangementId's value (byte-wise), not the whole line: gen writes the key with and
  # without a space after the colon, so sorting the lines did not sort by account (which
  # --sorted-by-account then refused). Records keep their order within an account (-s).
  LC_ALL=C awk '{ key = ""; if (match($0, /"arrangementId": *"[^"]*"/)) { key = substr($0, RSTART, RLENGTH)
    sub(/^"arrangementId": *"/, "", key); sub(/"$/, "", key) } print key "\t" $0 }' "$dump" |
    LC_ALL=C sort -S 1G -T "$work" -t "$(printf '\t')" -k1,1 -s | cut -f2- > "$sorted.tmp"
  mv "$sorted.tmp" "$sorted"
fi

venv=$work/venv
python=$venv/bin/python
if ! "$python" -c 'import duckdb' 2> /dev/null; then
  say "installing DuckDB into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$python" -m pip install -q --disable-pip-version-check duckdb
fi

out=$work/out
rm -rf "$out"
mkdir -p "$out/tmp"
labels=("txfold, --memory-limit $limit" "txfold, no limit" "txfold, sorted input, $limit"
  "txfold, sorted, --sorted-by-account" "DuckDB")
duckdb=4
commands=(
  "'$TXFOLD' group --per-account --format jsonl --memory-limit $limit --temp-dir '$out/tmp' -q -o '$out/limited.jsonl' '$dump'"
  "'$TXFOLD' group --per-account --format jsonl --memory-limit 64G -q -o '$out/unlimited.jsonl' '$dump'"
  "'$TXFOLD' group --per-account --format jsonl --memory-limit $limit --temp-dir '$out/tmp' -q -o '$out/sorted.jsonl' '$sorted'"
  "'$TXFOLD' group --per-account --sorted-by-account --format jsonl --memory-limit $limit --temp-dir '$out/tmp' -q -o '$out/streamed.jsonl' '$sorted'"
  "'$python' '$repo/Benchmarks/duckdb_accounts.py' '$dump' '$out/duckdb.jsonl'"
)
cat "$dump" "$sorted" > /dev/null
for ((round = 1; round <= runs; round++)); do
  for i in "${!labels[@]}"; do
    say "round $round/$runs: ${labels[i]}"
    eval "/usr/bin/time -f '%e %U %S %M' -o '$out/time' ${commands[i]}"
    tail -n 1 "$out/time" >> "$out/times-$i"
  done
done

median() {
  awk "{ print $2 }" "$1" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
printf '\ncompare-accounts.sh — %s; %s, %s cores\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" "$(nproc)"
printf 'txfold %s; DuckDB %s; dump: %s records, %s accounts (seed %s), %s MiB; %s rounds\n\n' \
  "$(git -C "$repo" describe --always --dirty 2> /dev/null || echo '?')" \
  "$("$python" -c 'import duckdb; print(duckdb.__version__)')" "$count" "$accounts" "$seed" \
  "$(($(stat -c %s "$dump") / 1048576))" "$runs"
printf '| %-32s | %11s | %10s | %10s |\n' command "median wall" "median CPU" "peak RSS"
printf '|%s|%s:|%s:|%s:|\n' "----------------------------------" "------------" "-----------" "-----------"
declare -a wall
for i in "${!labels[@]}"; do
  wall[i]=$(median "$out/times-$i" '$1')
  printf '| %-32s | %9s s | %8s s | %6.0f MiB |\n' "${labels[i]}" "${wall[i]}" \
    "$(median "$out/times-$i" '$2 + $3')" "$(median "$out/times-$i" '$4 / 1024')"
done
printf '\ntxfold (%s) / DuckDB: %s\n' "$limit" "$(awk -v a="${wall[0]}" -v b="${wall[duckdb]}" 'BEGIN { printf "%.2f", a / b }')"

status=0
cmp -s "$out/limited.jsonl" "$out/unlimited.jsonl" || { echo "MISMATCH: limited and unlimited runs differ"; status=1; }
cmp -s "$out/limited.jsonl" "$out/sorted.jsonl" || { echo "MISMATCH: shuffled and sorted input differ"; status=1; }
cmp -s "$out/limited.jsonl" "$out/streamed.jsonl" || { echo "MISMATCH: --sorted-by-account differs"; status=1; }
if [ -n "$(ls -A "$out/tmp")" ]; then echo "MISMATCH: the spill directory was left behind"; status=1; fi
python3 "$repo/Benchmarks/check_accounts.py" "$out/limited.jsonl" "$out/duckdb.jsonl" || status=1
[ $status -eq 0 ] && echo OK
exit $status
