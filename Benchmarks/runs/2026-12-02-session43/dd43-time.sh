#!/bin/bash
# time.sh BIN-label:path ... : plain vs --dedupe on $DUMP, csv, 1 and 2 threads, --memory-limit 96MiB, AVX2, interleaved rounds
DUMP=${DUMP:-/tmp/dd43/r2000.jsonl}; ROUNDS=${ROUNDS:-3}; FMTS=${FMTS:-csv}
export TXFOLD_MAX_KERNEL=avx2
echo "# columns: build round threads format mode user sys wall rssKiB load1 dump=$DUMP"
for r in $(seq 1 $ROUNDS); do for t in 1 2; do for f in $FMTS; do for m in plain dedupe; do for b in "$@"; do
  lab=${b%%:*}; bin=${b#*:}
  extra=""; [ $m = dedupe ] && extra="--dedupe --memory-limit 96MiB"
  l=$(cut -d' ' -f1 /proc/loadavg)
  o=$( { /usr/bin/time -f '%U %S %e %M' $bin group --format $f --threads $t $extra $DUMP > /tmp/dd43/out-$lab-$t-$f-$m; } 2>&1 | tail -1)
  echo "$lab $r t$t $f $m $o load=$l"
done; done; done; done; done
