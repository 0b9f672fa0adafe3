#!/usr/bin/env bash
# rounds.sh OUT ROUNDS DUMP -- label:binary:args... ; prints label user sys wall maxrss per run
out=$1; rounds=$2; dump=$3; shift 3
export TXFOLD_MAX_KERNEL=avx2
for r in $(seq 1 $rounds); do
  for spec in "$@"; do
    label=${spec%%=*}; cmd=${spec#*=}
    /usr/bin/time -f "$label round $r user %U sys %S wall %e rss %M" -o /tmp/par40/time.tmp $cmd -o /tmp/par40/out-$label $dump 2>/dev/null
    cat /tmp/par40/time.tmp | tee -a $out
  done
done
