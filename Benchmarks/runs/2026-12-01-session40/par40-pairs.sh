#!/usr/bin/env bash
# pairs.sh OUT ROUNDS DUMP label=args... : each spec runs twice at once (two one-thread processes), timed each
out=$1; rounds=$2; dump=$3; shift 3
export TXFOLD_MAX_KERNEL=avx2
for r in $(seq 1 $rounds); do
  for spec in "$@"; do
    label=${spec%%=*}; cmd=${spec#*=}
    /usr/bin/time -f "$label-a round $r user %U sys %S wall %e rss %M" -o /tmp/par40/pa.tmp $cmd -o /tmp/par40/pout-a-$label $dump 2>/dev/null &
    /usr/bin/time -f "$label-b round $r user %U sys %S wall %e rss %M" -o /tmp/par40/pb.tmp $cmd -o /tmp/par40/pout-b-$label $dump 2>/dev/null &
    wait
    cat /tmp/par40/pa.tmp /tmp/par40/pb.tmp | tee -a $out
  done
done
