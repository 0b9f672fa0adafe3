#!/usr/bin/env bash
# Interleaved rounds: base (8c4afa8) and new (night38) nights, each from a state its own build wrote,
# and the new build's full --dedupe run; nightly.sh's data; jsonl; 96MiB.
set -euo pipefail
W=/tmp/txfold-nightly; D=/tmp/night38-big
run() { local name=$1 bin=$2 threads=$3; shift 3
  /usr/bin/time -f "$name threads=$threads: %e s wall, %U+%S s CPU, %M KiB peak RSS" \
    "$bin" "$@" --threads "$threads" -q --memory-limit 96MiB --temp-dir "$D" 2>&1 >/dev/null | tail -1; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in 1 2 3; do
  for threads in 1 2; do
    rm -f $D/tb.state $D/tn.state
    run night-base /tmp/night38-bin/base $threads group --per-account --format jsonl --state-in $D/h.state --state-out $D/tb.state -o $D/nb.jsonl $W/night.jsonl
    run night-new /tmp/night38-bin/v5 $threads group --per-account --format jsonl --state-in $D/h3.state --state-out $D/tn.state -o $D/nn.jsonl $W/night.jsonl
    run full-new /tmp/night38-bin/v5 $threads group --per-account --format jsonl --dedupe -o $D/fn.jsonl $W/history.jsonl $W/night.jsonl
    cmp $D/nb.jsonl $D/fn.jsonl && cmp $D/nn.jsonl $D/fn.jsonl && echo "round $round threads $threads: both nights' reports = the full run's"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
ls -l $D/tb.state $D/tn.state
