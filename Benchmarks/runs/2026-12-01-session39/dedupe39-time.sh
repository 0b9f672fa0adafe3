#!/usr/bin/env bash
# time.sh ROUNDS : CPU (user+sys) and wall of plain vs --dedupe, group csv/json, s500/r500, 1 and 2 threads, base and new interleaved
R=${1:-3}
export TXFOLD_MAX_KERNEL=avx2
cd /tmp/dd37
for round in $(seq $R); do
 for t in 1 2; do
 for d in s500 r500; do
  for f in csv json; do
   for L in base new; do
   for mode in plain dedupe; do
    extra=(); [[ $mode == dedupe ]] && extra=(--dedupe --memory-limit 96MiB)
    /usr/bin/time -f '%U %S %e %M' -o /tmp/dedupe39/t.txt /tmp/dedupe39/txfold-$L group --format $f --threads $t "${extra[@]}" $d.jsonl > /tmp/dedupe39/tout-$L-$d-$f-$mode 2>/dev/null
    echo "$L $round t$t $d $f $mode $(cat /tmp/dedupe39/t.txt) load=$(cut -d' ' -f1 /proc/loadavg)"
   done
   done
  done
 done
 done
done
