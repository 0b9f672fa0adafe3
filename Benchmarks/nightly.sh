#!/usr/bin/env bash
# Incremental nightly runs against a full --dedupe run (issue #27's benchmark).
#
# History: HISTORY records over ACCOUNTS skewed accounts (txfold gen, day order). Tonight: NIGHT
# records, half of them re-sent from the end of the history (their PENDING ones now COMPLETED),
# half new. Times three runs, one-threaded (CPU seconds compare on a shared machine) and with
# every core:
#   full   — group --per-account --dedupe over history and night (what a run without state does);
#   seed   — the first night: the history alone, writing its state;
#   night  — tonight from that state (--state-in, --state-out);
# and checks that night's report is the full run's, byte for byte.
#
#   Benchmarks/nightly.sh                 # HISTORY=2000000 NIGHT=200000 ACCOUNTS=200000
#   TXFOLD=.build/release/txfold WORK=/tmp/nightly Benchmarks/nightly.sh
set -euo pipefail
TXFOLD=${TXFOLD:-.build/release/txfold}
WORK=${WORK:-/tmp/txfold-nightly}
HISTORY=${HISTORY:-2000000}
NIGHT=${NIGHT:-200000}
ACCOUNTS=${ACCOUNTS:-200000}
MEMORY=${MEMORY:-96MiB}
mkdir -p "$WORK"
echo "cpu flags: $(grep -m1 -o -w -E 'sse4_2|avx|avx2|bmi2|avx512f|avx512_vbmi2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "kernel: TXFOLD_MAX_KERNEL=${TXFOLD_MAX_KERNEL:-(best)}"
if [ ! -s "$WORK/history.jsonl" ]; then
  "$TXFOLD" gen --count $((HISTORY + NIGHT / 2)) --accounts "$ACCOUNTS" --seed 27 -o "$WORK/all.jsonl"
  head -n "$HISTORY" "$WORK/all.jsonl" > "$WORK/history.jsonl"
  { tail -n $((NIGHT / 2)) "$WORK/history.jsonl" | sed 's/"PENDING"/"COMPLETED"/'
    tail -n $((NIGHT / 2)) "$WORK/all.jsonl"; } > "$WORK/night.jsonl"
  rm "$WORK/all.jsonl"
fi
ls -l "$WORK/history.jsonl" "$WORK/night.jsonl"
run() { # name, threads, command…
  local name=$1 threads=$2
  shift 2
  /usr/bin/time -f "$name threads=$threads: %e s wall, %U+%S s CPU, %M KiB peak RSS" \
    "$TXFOLD" "$@" --threads "$threads" -q --memory-limit "$MEMORY" --temp-dir "$WORK" 2>&1 >/dev/null | tail -1
}
for threads in 1 $(nproc); do
  run full "$threads" group --per-account --format csv --dedupe -o "$WORK/full.csv" "$WORK/history.jsonl" "$WORK/night.jsonl"
  run seed "$threads" group --per-account --format csv --state-out "$WORK/history.state" -o "$WORK/seed.csv" "$WORK/history.jsonl"
  run night "$threads" group --per-account --format csv --state-in "$WORK/history.state" \
    --state-out "$WORK/tonight.state" -o "$WORK/night.csv" --stats "$WORK/night.stats.json" "$WORK/night.jsonl"
  cmp "$WORK/full.csv" "$WORK/night.csv" && echo "night's report = full run's report"
done
json=$(($(stat -c %s "$WORK/history.jsonl") + $(stat -c %s "$WORK/night.jsonl")))
state=$(stat -c %s "$WORK/tonight.state")
python3 - "$WORK/night.stats.json" "$state" "$json" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
state, source = int(sys.argv[2]), int(sys.argv[3])
kept = stats["accepted"] - stats["duplicates"]
print(f"state: {state} bytes for {source} bytes of JSON ({state / source:.3f} x); "
      f"{kept} transactions kept, {state / kept:.1f} bytes each")
PY
