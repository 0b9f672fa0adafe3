#!/bin/bash
# dd44-time1.sh LABEL:BIN ... : dd44-time.sh's cases at one thread only (plain, --dedupe --memory-limit 96MiB), interleaved
DUMP=${DUMP:-/tmp/dd44-data/r2m.jsonl}; ROUNDS=${ROUNDS:-3}; OUT=/tmp/dd44-data/tout
export TXFOLD_MAX_KERNEL=avx2; mkdir -p $OUT
echo "# columns: build round threads mode user sys wall rssKiB minorFaults load1 dump=$DUMP format=json"
for r in $(seq 1 $ROUNDS); do for m in plain dedupe; do for b in "$@"; do
  lab=${b%%:*}; bin=${b#*:}
  extra=""; [ $m = dedupe ] && extra="--dedupe --memory-limit 96MiB"
  l=$(cut -d' ' -f1 /proc/loadavg)
  o=$( { /usr/bin/time -f '%U %S %e %M %R' $bin group --format json --threads 1 $extra $DUMP > $OUT/$lab-1-$m; } 2>&1 | tail -1)
  echo "$lab $r t1 $m $o load=$l"
done; done; done
