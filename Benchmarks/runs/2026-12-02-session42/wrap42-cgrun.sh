#!/bin/bash
# wrap42-cgrun.sh TAG BINARY N: callgrind of `group --format csv --threads 1` (AVX2 kernel) on the
# inputs wrap42-inputs.py N writes (as arr41-cgrun.sh) (N records of the shuffled dump as JSON lines and as arrays).
# BINARY is a release build with `strip --strip-debug`.
tag=$1; bin=$2; n=$3
dir=/tmp/wrap42-cg/$n; mkdir -p $dir/cg
for name in lines array oneline pretty wrapper; do
  input=$(ls $dir/$name.json*)
  TXFOLD_MAX_KERNEL=avx2 valgrind --tool=callgrind --callgrind-out-file=$dir/cg/$tag-$name.out \
    $bin group --format csv --threads 1 -q -o $dir/cg/out-$tag-$name.csv $input 2> $dir/cg/$tag-$name.log
  total=$(grep -o "refs: *[0-9,]*" $dir/cg/$tag-$name.log | tr -d ' ,' | cut -d: -f2)
  walk=$(callgrind_annotate $dir/cg/$tag-$name.out 2>/dev/null | grep -E "skimRecordContent|DocumentWalker.walk|skim_avx2" | awk '{gsub(",","",$1); n=$0; if (n ~ /skimRecordContent/) k="skimRecordContent"; else if (n ~ /skim_avx2/) k="skim_avx2"; else k="walk"; printf "%s=%s ", k, $1}')
  echo "$tag $name total=$total $walk"
done
