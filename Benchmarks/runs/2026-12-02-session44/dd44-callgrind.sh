#!/bin/bash
# dd44-callgrind.sh LABEL:BIN ... : callgrind instructions (Ir) of group --dedupe --format json --threads 1 on $DUMP,
# at --memory-limit 96MiB (no spill at 200k records) and 8MiB (the id table spills), and the plain run; stripped copies
DUMP=${DUMP:-/tmp/dd44-data/r200.jsonl}; W=/tmp/dd44-data/cg; mkdir -p $W
export TXFOLD_MAX_KERNEL=avx2
for b in "$@"; do lab=${b%%:*}; bin=${b#*:}; cp $bin $W/$lab; strip $W/$lab; done
for mode in "plain:" "dedupe96:--dedupe --memory-limit 96MiB" "dedupe8:--dedupe --memory-limit 8MiB"; do
  m=${mode%%:*}; extra=${mode#*:}
  for b in "$@"; do lab=${b%%:*}
    valgrind --tool=callgrind --callgrind-out-file=$W/cg-$lab-$m.out $W/$lab group --format json --threads 1 $extra $DUMP > $W/out-$lab-$m 2> $W/err-$lab-$m
    ir=$(grep -o 'Collected : [0-9]*' $W/err-$lab-$m | grep -o '[0-9]*'); [ -z "$ir" ] && ir=$(grep '^summary:' $W/cg-$lab-$m.out | awk '{print $2}')
    echo "$lab $m Ir=$ir outbytes=$(stat -c %s $W/out-$lab-$m)"
  done
  first=${1%%:*}; for b in "${@:2}"; do lab=${b%%:*}; cmp -s $W/out-$first-$m $W/out-$lab-$m && echo "$m: $first = $lab output same bytes" || echo "$m: $first vs $lab output DIFFERENT"; done
done
