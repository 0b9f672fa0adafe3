#!/bin/bash
# timeab.sh ROUNDS: interleaved runs of base and new txfold on the 2M shuffled dump (AVX2, default threads)
rounds=$1
f=/tmp/cmp38/dump-2000000-seed7-accounts200000-shuffled.jsonl
cat $f > /dev/null
out=/tmp/scan40/timeab.raw; : > $out
uptime >> $out
for r in $(seq $rounds); do
  for cmd in summary csv; do
    if [ $cmd = summary ]; then args="summary --by category --format csv"; else args="group --format csv"; fi
    for b in base new; do
      TXFOLD_MAX_KERNEL=avx2 /usr/bin/time -f "$r $cmd $b %e %U %S" /tmp/scan40/txf-$b $args -q -o /tmp/scan40/t-$b-$cmd.csv $f 2>> $out
    done
  done
done
uptime >> $out
python3 - $out <<'PY'
import sys,collections,statistics
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)==6 and p[0].isdigit(): d[(p[1],p[2])].append((float(p[3]),float(p[4])+float(p[5])))
for k in sorted(d):
    v=d[k]; w=[x[0] for x in v]; c=[x[1] for x in v]
    print("%-8s %-5s wall median %.3f min %.3f | cpu median %.3f min %.3f | cpu %s" % (k[0],k[1],statistics.median(w),min(w),statistics.median(c),min(c)," ".join("%.2f"%x for x in c)))
PY
