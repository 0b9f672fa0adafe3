#!/usr/bin/env bash
# dd44-compare.sh OLD NEW (session 43's dd43-compare.sh on session 44's dumps: DUMPS="r20 r20d r20a s20" (shuffled, day, account order) or "r200 s200", in /tmp/dd44-data) : every case's stdout byte for byte, stderr but timing
O=$1; N=$2; D=/tmp/dd44-data; W=/tmp/dd44-data/cmps; mkdir -p $W
DUMPS=${DUMPS:-"r20 r20d r20a s20"}
export TXFOLD_MAX_KERNEL=avx2
[[ -f $W/r20.jsonl.gz ]] || gzip -1 -c $D/r20.jsonl > $W/r20.jsonl.gz
cases=(
"group --dedupe --format csv --threads 1 --memory-limit 96MiB"
"group --dedupe --format json --threads 1 --memory-limit 96MiB"
"group --dedupe --format json --threads 2"
"group --dedupe --format json --threads 2 --memory-limit 1MiB"
"group --dedupe --format json --threads 1 --members 50"
"group --dedupe --format json --threads 2 --members 3"
"group --dedupe --format json --threads 1 --members all"
"group --format json --threads 1 --members 50"
"group --dedupe --format csv --threads 2 --memory-limit 1MiB"
"group --dedupe --format csv --threads 1 --memory-limit 4MiB"
"group --dedupe --format json --threads 2 --memory-limit 4MiB"
"group --dedupe --per-account --format jsonl --threads 2 --memory-limit 96MiB"
"group --dedupe --per-account --format csv --threads 1 --memory-limit 1MiB"
"summary --dedupe --by category --threads 2"
"summary --dedupe --by day --threads 1 --memory-limit 1MiB"
"list --dedupe --format csv --threads 2"
)
for d in $DUMPS; do for c in "${cases[@]}"; do
  $O $c $D/$d.jsonl > $W/o 2> $W/oe; $N $c $D/$d.jsonl > $W/n 2> $W/ne
  s=same; cmp -s $W/o $W/n || s=DIFFERENT; grep -v -i "^txfold: read\|runs on disk" $W/oe > $W/oe2; grep -v -i "^txfold: read\|runs on disk" $W/ne > $W/ne2; cmp -s $W/oe2 $W/ne2 || s="$s stderr-DIFFERENT"
  echo "$d | $c | $(stat -c %s $W/n) bytes | $s | $(head -1 $W/ne)"
done; done
c="group --dedupe --format json --threads 2 -"; $O $c < $W/r20.jsonl.gz > $W/o 2>/dev/null; $N $c < $W/r20.jsonl.gz > $W/n 2>/dev/null; cmp -s $W/o $W/n && s=same || s=DIFFERENT; echo "gzstdin json | $(stat -c %s $W/n) bytes | $s"
c="group --dedupe --format json --threads 2"; $O $c $W/r20.jsonl.gz $D/s20.jsonl > $W/o 2>/dev/null; $N $c $W/r20.jsonl.gz $D/s20.jsonl > $W/n 2>/dev/null; cmp -s $W/o $W/n && s=same || s=DIFFERENT; echo "two json | $(stat -c %s $W/n) bytes | $s"
c="summary --dedupe --by month"; $O $c $W/r20.jsonl.gz $D/s20.jsonl > $W/o 2>/dev/null; $N $c $W/r20.jsonl.gz $D/s20.jsonl > $W/n 2>/dev/null; cmp -s $W/o $W/n && s=same || s=DIFFERENT; echo "two summary | $(stat -c %s $W/n) bytes | $s"
