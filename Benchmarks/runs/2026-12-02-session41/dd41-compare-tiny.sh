#!/usr/bin/env bash
# compare-tiny.sh OLD NEW : --memory-limit 64KiB (the id table spills many times), stdout byte for byte
O=$1; N=$2; W=/tmp/dd41/cmpt; mkdir -p $W; export TXFOLD_MAX_KERNEL=avx2
for d in r20 s20; do for c in "group --dedupe --format csv --threads 1 --memory-limit 64KiB" "group --dedupe --format json --threads 2 --memory-limit 64KiB --members all" "group --dedupe --per-account --format csv --threads 2 --memory-limit 64KiB" "summary --dedupe --by day --threads 2 --memory-limit 64KiB"; do
  $O $c /tmp/dd41/$d.jsonl > $W/o 2>/dev/null; $N $c /tmp/dd41/$d.jsonl > $W/n 2>/dev/null
  cmp -s $W/o $W/n && s=same || s=DIFFERENT; echo "$d | $c | $(stat -c %s $W/n) bytes | $s"
done; done
