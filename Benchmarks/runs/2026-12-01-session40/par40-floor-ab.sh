#!/usr/bin/env bash
# floorab.sh OUT ROUNDS BINARY: json on two threads with and without TXFOLD_PAR40_FLOOR (the shared-floor
# prototype), every order, interleaved; csv beside as the reference
out=$1; rounds=$2; B=$3
export TXFOLD_MAX_KERNEL=avx2
for r in $(seq 1 $rounds); do
  for o in shuffled account day; do
    S=/tmp/cmp38/dump-2000000-seed7-accounts200000-$o.jsonl
    /usr/bin/time -f "$o-json-t2 round $r user %U sys %S wall %e rss %M" -o /tmp/par40/f.tmp $B group --format json --threads 2 -o /tmp/par40/fout-$o-plain.json $S 2>/dev/null; cat /tmp/par40/f.tmp | tee -a $out
    TXFOLD_PAR40_FLOOR=1 /usr/bin/time -f "$o-json-t2-floor round $r user %U sys %S wall %e rss %M" -o /tmp/par40/f.tmp $B group --format json --threads 2 -o /tmp/par40/fout-$o-floor.json $S 2>/dev/null; cat /tmp/par40/f.tmp | tee -a $out
    /usr/bin/time -f "$o-csv-t2 round $r user %U sys %S wall %e rss %M" -o /tmp/par40/f.tmp $B group --format csv --threads 2 -o /tmp/par40/fout-$o.csv $S 2>/dev/null; cat /tmp/par40/f.tmp | tee -a $out
    cmp /tmp/par40/fout-$o-plain.json /tmp/par40/fout-$o-floor.json && echo "$o: json bytes identical with and without the floor" | tee -a $out
  done
done
