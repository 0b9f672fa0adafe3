#!/usr/bin/env bash
# halves.sh OUT ROUNDS: json20/csv on two threads against two one-thread processes at once, each on half the chunks;
# and json20 on two threads with MALLOC_ARENA_MAX=1
out=$1; rounds=$2; B=./txf-main; S=/tmp/cmp38/dump-2000000-seed7-accounts200000-shuffled.jsonl
export TXFOLD_MAX_KERNEL=avx2
for r in $(seq 1 $rounds); do
  for f in json csv; do
    /usr/bin/time -f "$f-t2 round $r user %U sys %S wall %e rss %M" -o /tmp/par40/h.tmp $B group --format $f --threads 2 -o /tmp/par40/hout-$f $S 2>/dev/null; cat h.tmp | tee -a $out
    /usr/bin/time -f "x round $r user %U sys %S wall %e rss %M" -o /tmp/par40/ha.tmp $B group --format $f --threads 1 -o /tmp/par40/hout-a-$f half0.jsonl 2>/dev/null &
    /usr/bin/time -f "x round $r user %U sys %S wall %e rss %M" -o /tmp/par40/hb.tmp $B group --format $f --threads 1 -o /tmp/par40/hout-b-$f half1.jsonl 2>/dev/null &
    wait
    python3 -c "
a=open('/tmp/par40/ha.tmp').read().split(); b=open('/tmp/par40/hb.tmp').read().split()
print('$f-halves round $r user %.2f sys %.2f wall %.2f rss %d' % (float(a[4])+float(b[4]), float(a[6])+float(b[6]), max(float(a[8]),float(b[8])), int(a[10])+int(b[10])))" | tee -a $out
  done
  MALLOC_ARENA_MAX=1 /usr/bin/time -f "json-t2-arena1 round $r user %U sys %S wall %e rss %M" -o /tmp/par40/h.tmp $B group --format json --threads 2 -o /tmp/par40/hout-j1 $S 2>/dev/null; cat h.tmp | tee -a $out
done
