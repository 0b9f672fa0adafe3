#!/usr/bin/env bash
# dd42-rss.sh BASE NEW : peak RSS (KiB) of group --dedupe --memory-limit 96MiB|4MiB on r500/s500, base and new, 1 and 2 threads; csv and json; outputs compared by hash
export TXFOLD_MAX_KERNEL=avx2
W=/tmp/dd42/rss; mkdir -p $W
for d in r500 s500; do for f in csv json; do for t in 1 2; do for lim in 96MiB 4MiB; do for b in base new; do
  bin=$1; [[ $b == new ]] && bin=$2
  /usr/bin/time -f "%M %U %S" -o $W/t $bin group --dedupe --format $f --threads $t --memory-limit $lim /tmp/dd37/$d.jsonl > $W/$b.out 2> $W/$b.err
  echo "$d $f threads $t limit $lim $b: peak RSS $(cut -d' ' -f1 $W/t) KiB, user+sys $(awk '{print $2+$3}' $W/t) s, sha $(sha1sum < $W/$b.out | cut -c1-12) $(grep -c . $W/$b.err) stderr lines"
done; done; done; done; done
