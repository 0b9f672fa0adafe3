#!/bin/bash
# dd44-time.sh LABEL:BIN ... : plain vs --dedupe --memory-limit 96MiB on $DUMP, json, 1 and 2 threads, AVX2,
# interleaved rounds (every build in turn within each case); /usr/bin/time user sys wall peak-RSS minor-faults
DUMP=${DUMP:-/tmp/dd44-data/r2m.jsonl}; ROUNDS=${ROUNDS:-5}; FMT=${FMT:-json}; OUT=/tmp/dd44-data/tout
export TXFOLD_MAX_KERNEL=avx2; mkdir -p $OUT
echo "# columns: build round threads mode user sys wall rssKiB minorFaults load1 dump=$DUMP format=$FMT"
for r in $(seq 1 $ROUNDS); do for t in 1 2; do for m in plain dedupe; do for b in "$@"; do
  lab=${b%%:*}; bin=${b#*:}
  extra=""; [ $m = dedupe ] && extra="--dedupe --memory-limit 96MiB"
  l=$(cut -d' ' -f1 /proc/loadavg)
  o=$( { /usr/bin/time -f '%U %S %e %M %R' $bin group --format $FMT --threads $t $extra $DUMP > $OUT/$lab-$t-$m; } 2>&1 | tail -1)
  echo "$lab $r t$t $m $o load=$l"
done; done; done; done
