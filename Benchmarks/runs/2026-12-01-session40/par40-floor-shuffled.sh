#!/usr/bin/env bash
# rounds2.sh OUT ROUNDS DUMP BINARY: shuffled json/csv, one and two threads, two threads with the floor prototype
out=$1; rounds=$2; S=$3; B=$4
export TXFOLD_MAX_KERNEL=avx2
for r in $(seq 1 $rounds); do
  for spec in json-t1:1: json-t2:2: json-t2-floor:2:1 csv-t1:1:c csv-t2:2:c; do
    IFS=: read -r label t x <<< "$spec"
    f=json; [[ $x == c ]] && f=csv
    if [[ $x == 1 ]]; then export TXFOLD_PAR40_FLOOR=1; else unset TXFOLD_PAR40_FLOOR; fi
    /usr/bin/time -f "$label round $r user %U sys %S wall %e rss %M" -o /tmp/par40/g.tmp $B group --format $f --threads $t -o /tmp/par40/gout-$label $S 2>/dev/null
    cat /tmp/par40/g.tmp | tee -a $out
  done
  unset TXFOLD_PAR40_FLOOR
done
