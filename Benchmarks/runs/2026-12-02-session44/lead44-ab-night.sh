#!/bin/bash
# ab-night.sh ROUNDS: interleaved night/full A/B, base (rel44, level -3) vs lvl (rel44b, level -10), two threads.
cd /tmp/txfold-nightly
A=/tmp/rel44/release/txfold; B=/tmp/rel44b/release/txfold
grep -m1 -o -w -E 'sse4_2|avx|avx2|bmi2|avx512f|avx512_vbmi2' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
export TXFOLD_MAX_KERNEL=avx2
m="--memory-limit 96MiB --temp-dir /tmp/txfold-nightly -q --threads ${T:-2}"
t() { local tag=$1; shift; /usr/bin/time -f "$tag %e s wall %U+%S s cpu %M KiB" "$@" 2>&1 | tail -1; }
for r in $(seq 1 ${1:-3}); do
  echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
  t "base night" $A group --per-account --format jsonl --state-in h.main.state --state-out t.main.state -o n.main.jsonl $m night.jsonl
  t "lvl  night" $B group --per-account --format jsonl --state-in h.lvl.state --state-out t.lvl.state -o n.lvl.jsonl $m night.jsonl
  t "base full " $A group --per-account --format jsonl --dedupe -o f.main.jsonl $m history.jsonl night.jsonl
  t "lvl  full " $B group --per-account --format jsonl --dedupe -o f.lvl.jsonl $m history.jsonl night.jsonl
  cmp n.main.jsonl n.lvl.jsonl && cmp n.lvl.jsonl f.main.jsonl && cmp f.main.jsonl f.lvl.jsonl && echo "round $r: reports equal"
done
ls -l h.main.state h.lvl.state t.main.state t.lvl.state
