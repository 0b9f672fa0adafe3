#!/bin/bash
# arr41-cgrun.sh TAG BINARY: callgrind of `group --format csv --threads 1` (AVX2 kernel) on 50k records
# of the shuffled dump as JSON lines and as arrays (one element a line, one line, pretty-printed with
# indent 2, an `items` wrapper on one line). BINARY is a release build with `strip --strip-debug`.
# Inputs: /tmp/rep40/l50k.jsonl, /tmp/rep40/arr50k.json (its lines as one array, one element a
# line); the others made from l50k.jsonl with Python (see arr41-inputs.py).
tag=$1; bin=$2
dir=/tmp/arr41; mkdir -p $dir/cg
for input in /tmp/rep40/l50k.jsonl /tmp/rep40/arr50k.json $dir/arr50k-1line.json $dir/arr50k-pretty.json $dir/wrap50k.json; do
  name=$(basename $input); name=${name%.*}
  TXFOLD_MAX_KERNEL=avx2 valgrind --tool=callgrind --callgrind-out-file=$dir/cg/$tag-$name.out \
    $bin group --format csv --threads 1 -q -o $dir/cg/out-$tag-$name.csv $input 2> $dir/cg/$tag-$name.log
  total=$(grep -o "refs: *[0-9,]*" $dir/cg/$tag-$name.log | tr -d ' ,' | cut -d: -f2)
  walk=$(callgrind_annotate --inclusive=no $dir/cg/$tag-$name.out 2>/dev/null | grep -E "skimRecordContent|DocumentWalker.walk|txfold_json_skim|skim_avx2|vectorSkim" | awk '{gsub(",","",$1); s=$0; sub(/.*\(/,"",s); n=$0; if (n ~ /skimRecordContent/) k="skimRecordContent"; else if (n ~ /vectorSkim/) k="vectorSkim"; else if (n ~ /skim_avx2/) k="skim_avx2"; else if (n ~ /txfold_json_skim/) k="txfold_json_skim"; else k="walk"; printf "%s=%s ", k, $1}')
  echo "$tag $name total=$total $walk"
done
