#!/bin/bash
# cgrun.sh TAG BINARY: callgrind of summary and group csv on the three 200k slices, one thread, AVX2
tag=$1; bin=$2
cd /tmp/scan40
for order in shuffled account day; do
  for cmd in summary csv; do
    if [ $cmd = summary ]; then args="summary --by category --format csv"; else args="group --format csv"; fi
    TXFOLD_MAX_KERNEL=avx2 valgrind --tool=callgrind --callgrind-out-file=/tmp/scan40/cg-$tag-$cmd-$order.out \
      $bin $args --threads 1 -q -o /tmp/scan40/out-$tag-$cmd-$order.csv /tmp/sum39/$order.jsonl 2> /tmp/scan40/cg-$tag-$cmd-$order.log
    total=$(grep -o "refs: *[0-9,]*" /tmp/scan40/cg-$tag-$cmd-$order.log | tr -d ' ,' | cut -d: -f2)
    fa=$(callgrind_annotate /tmp/scan40/cg-$tag-$cmd-$order.out 2>/dev/null | grep -E "scanIndexed|index_avx2|decodeDirect" | awk '{gsub(",","",$1); printf "%s=%s ", ($0 ~ /scanIndexed/ ? "scanIndexed" : ($0 ~ /index_avx2/ ? "index_avx2" : "decodeDirect")), $1}')
    echo "$tag $cmd $order total=$total $fa"
  done
done
