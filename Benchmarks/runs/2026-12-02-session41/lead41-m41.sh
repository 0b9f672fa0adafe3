#!/bin/bash
# floor41 and dd41 before/after instruction counts (callgrind), outputs compared
export TXFOLD_MAX_KERNEL=avx2
out=/tmp/m41; mkdir -p $out
for tag in base new; do
  bin=/tmp/$tag\41.bin
  for t in 1 2; do
    valgrind --tool=callgrind --callgrind-out-file=$out/cg-$tag-json-t$t.out $bin group --format json --threads $t -q -o $out/o-$tag-json-t$t.json /tmp/sh200k.jsonl 2> $out/cg-$tag-json-t$t.log
    echo "$tag json shuffled200k threads=$t $(grep -o 'refs: *[0-9,]*' $out/cg-$tag-json-t$t.log)"
  done
  for d in r200 s200; do for f in csv json; do
    valgrind --tool=callgrind --callgrind-out-file=$out/cg-$tag-$d-$f.out $bin group --format $f --threads 1 --dedupe --memory-limit 96MiB -q -o $out/o-$tag-$d-$f /tmp/dd37/$d.jsonl 2> $out/cg-$tag-$d-$f.log
    echo "$tag dedupe $d $f threads=1 $(grep -o 'refs: *[0-9,]*' $out/cg-$tag-$d-$f.log)"
  done; done
done
for f in $out/o-base-*; do n=${f/o-base-/o-new-}; cmp -s $f $n && echo "same $(basename $n)" || echo "DIFFER $(basename $n)"; done
