#!/usr/bin/env bash
# dedupe.sh — what `--dedupe` costs each job, beside the plain run and DuckDB's latest-per-id.
#
# Usage:
#   Benchmarks/dedupe.sh [WORK_DIR]
#
# What it does:
#   1. uses TXFOLD (a release binary) or builds one (`swift build -c release`);
#   2. generates two dumps once, in WORK_DIR: `s` — `txfold gen --count $COUNT --seed 7
#      --accounts $COUNT/10 --order shuffled`, every id distinct — and `r`, the same with
#      `--resend 0.2` (a fifth of the records sent again later with the same id, a pending one as
#      its completed version);
#   3. for each dump and each job — `group --format json` (members kept), `group --format csv`,
#      `list --format csv`, `summary --format csv`, `group --per-account --format csv` — runs the
#      plain job and the job with `--dedupe --memory-limit 96MiB`, on one thread (CPU seconds,
#      user + system, are the figures to compare on a shared machine) and, for `--dedupe`, on two
#      (wall time and peak RSS), $RUNS rounds (each round runs every command once), AVX2 kernel;
#   4. times DuckDB's latest-per-id and group-by inside its process (query only:
#      `QUALIFY row_number() OVER (PARTITION BY id ORDER BY creationTime DESC) = 1`, then the
#      group-by of compare.sh), when DuckDB can be had (a virtualenv in WORK_DIR, from PyPI);
#   5. with SOAK=N (e.g. 20000000), also `group --dedupe --format json --threads 2` on a shuffled
#      dump of N distinct ids beside the $COUNT one: peak RSS must not grow with the dump;
#   6. prints the CPU flags, one table per dump (medians), and checks that every `--dedupe` run on
#      `s` (where nothing repeats) prints what the plain run prints.
#
# Environment: WORK, COUNT=2000000, RUNS=3, TXFOLD, SOAK (off), DUCKDB (1; 0 leaves DuckDB out).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${WORK:-/tmp/txfold-dedupe}}
count=${COUNT:-2000000}
runs=${RUNS:-3}
soak=${SOAK:-}
duck=${DUCKDB:-1}
limit=96MiB
mkdir -p "$work"
say() { printf '==> %s\n' "$*" >&2; }

if [[ -n ${TXFOLD:-} ]]; then
  txfold=$TXFOLD
else
  say "building txfold (release)"
  (cd "$repo" && swift build -c release --product txfold > "$work/build.log" 2>&1)
  txfold="$repo/.build/release/txfold"
fi
export TXFOLD_MAX_KERNEL=avx2

dump() { # dump NAME COUNT [gen options…]
  local name=$1 n=$2
  shift 2
  if [[ ! -s $work/$name.jsonl ]]; then
    say "generating $name ($n records)"
    "$txfold" gen --count "$n" --seed 7 --accounts $((n / 10)) --order shuffled "$@" -o "$work/$name.jsonl"
  fi
}
dump s "$count"
dump r "$count" --resend 0.2

# timed LABEL COMMAND…: one run under GNU time; appends "LABEL cpu wall rss_kib" to the results.
timed() {
  local label=$1
  shift
  sync
  /usr/bin/time -f "%U %S %e %M" -o "$work/time.txt" "$@" > "$work/out-$label" 2> "$work/err-$label"
  read -r user sys wall rss < "$work/time.txt"
  echo "$label $(echo "$user + $sys" | bc) $wall $rss" >> "$work/results.txt"
}

jobs=("group-json:group --format json" "group-csv:group --format csv" "list-csv:list --format csv"
  "summary-csv:summary --format csv" "per-account-csv:group --per-account --format csv")
: > "$work/results.txt"
for round in $(seq "$runs"); do
  say "round $round of $runs"
  for name in s r; do
    for entry in "${jobs[@]}"; do
      job=${entry%%:*}
      read -r -a args <<< "${entry#*:}"
      timed "$name.$job.plain" "$txfold" "${args[@]}" --threads 1 "$work/$name.jsonl"
      timed "$name.$job.dedupe" "$txfold" "${args[@]}" --dedupe --memory-limit $limit --threads 1 "$work/$name.jsonl"
      timed "$name.$job.dedupe2" "$txfold" "${args[@]}" --dedupe --memory-limit $limit --threads 2 "$work/$name.jsonl"
    done
  done
done

if [[ $duck == 1 ]]; then
  if [[ ! -x $work/venv/bin/python ]]; then
    say "installing DuckDB into $work/venv"
    { python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q duckdb; } > "$work/pip.log" 2>&1 || duck=0
  fi
fi
if [[ $duck == 1 ]]; then
  cat > "$work/duckdb_dedupe.py" << 'EOF'
# Each id's latest version, then compare.sh's group-by; the query's seconds appended to argv[3].
import sys
import time

import duckdb

source, target, timing = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
query = """
COPY (
  WITH latest AS (
    SELECT * FROM read_json($source, format = 'newline_delimited', columns = {
      'id': 'VARCHAR', 'creationTime': 'VARCHAR', 'state': 'VARCHAR',
      'creditDebitIndicator': 'VARCHAR',
      'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)'})
    QUALIFY row_number() OVER (PARTITION BY id ORDER BY CAST(creationTime AS TIMESTAMP) DESC) = 1
  )
  SELECT upper(state) AS state, CAST(CAST(creationTime AS TIMESTAMP) AS DATE) AS date,
         creditDebitIndicator, transactionAmountCurrency.currencyCode AS currency, count(*) AS count,
         sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, 2))) AS amount
  FROM latest GROUP BY ALL ORDER BY state, date, creditDebitIndicator, currency
) TO '%s' (HEADER, DELIMITER ',')
""" % target.replace("'", "''")
started = time.perf_counter()
con.execute(query, {"source": source})
with open(timing, "a") as f:
    f.write("%.6f\n" % (time.perf_counter() - started))
EOF
  for name in s r; do
    : > "$work/duckdb-$name.txt"
    for round in $(seq "$runs"); do
      timed "$name.duckdb" "$work/venv/bin/python" "$work/duckdb_dedupe.py" "$work/$name.jsonl" "$work/duckdb-$name.csv" \
        "$work/duckdb-$name.txt"
    done
  done
fi

if [[ -n $soak ]]; then
  dump soak "$soak"
  timed "soak.small" "$txfold" group --format json --dedupe --memory-limit $limit --threads 2 "$work/s.jsonl"
  timed "soak.large" "$txfold" group --format json --dedupe --memory-limit $limit --threads 2 "$work/soak.jsonl"
fi

# Medians of a label's column (2 cpu, 3 wall, 4 rss).
median() { awk -v l="$1" -v c="$2" '$1 == l { print $c }' "$work/results.txt" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

echo "cpu flags: $(grep -o -w -E 'avx512_vbmi2|avx512bw|avx2|bmi2|sse4_2' /proc/cpuinfo | sort -u | tr '\n' ' ')($(nproc) cores)"
echo "txfold: $txfold, TXFOLD_MAX_KERNEL=avx2, --memory-limit $limit; medians of $runs runs"
for name in s r; do
  echo
  echo "dump $name ($(wc -l < "$work/$name.jsonl") lines)"
  printf '| %-16s | %12s | %13s | %5s | %17s | %13s |\n' job "plain CPU 1t" "dedupe CPU 1t" ratio "dedupe wall (2t)" "dedupe RSS 2t"
  printf '|%s|\n' "------------------|-------------:|--------------:|------:|------------------:|--------------:"
  for entry in "${jobs[@]}"; do
    job=${entry%%:*}
    plain=$(median "$name.$job.plain" 2)
    dedupe=$(median "$name.$job.dedupe" 2)
    printf '| %-16s | %10.2f s | %11.2f s | %5.2f | %15.2f s | %9d MiB |\n' "$job" "$plain" "$dedupe" \
      "$(echo "$dedupe / $plain" | bc -l)" "$(median "$name.$job.dedupe2" 3)" $(($(median "$name.$job.dedupe2" 4) / 1024))
  done
  if [[ $duck == 1 ]]; then
    query=$(sort -g "$work/duckdb-$name.txt" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    printf 'DuckDB latest-per-id + group-by: query %.2f s inside its process, CPU %.2f s, RSS %d MiB; ' "$query" \
      "$(median "$name.duckdb" 2)" $(($(median "$name.duckdb" 4) / 1024))
    printf 'txfold group --dedupe json (1 thread, CPU) / DuckDB query: %.2f\n' \
      "$(echo "$(median "$name.group-json.dedupe" 2) / $query" | bc -l)"
  fi
done
if [[ -n $soak ]]; then
  echo
  echo "soak: group --dedupe --format json --threads 2: $count ids $(median soak.small 3) s, $(($(median soak.small 4) / 1024)) MiB;" \
    "$soak ids $(median soak.large 3) s, $(($(median soak.large 4) / 1024)) MiB"
fi

status=0
for entry in "${jobs[@]}"; do
  job=${entry%%:*}
  cmp -s "$work/out-s.$job.plain" "$work/out-s.$job.dedupe" || {
    echo "MISMATCH: $job --dedupe on s (nothing repeats) differs from the plain run"
    status=1
  }
done
[[ $status == 0 ]] && echo "OK: every --dedupe run on s prints what the plain run prints"
exit $status
