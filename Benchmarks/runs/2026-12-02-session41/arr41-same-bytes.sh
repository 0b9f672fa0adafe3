#!/bin/bash
# arr41-same-bytes.sh BASE NEW DIR: every output of NEW equals BASE's, byte for byte (stdout, the
# output file and the exit status), for each .json/.jsonl input in DIR: group csv and json,
# summary, list; 1 and 2 threads; plain and gzip; group csv under every kernel cap (others: avx2).
base=$1; new=$2; dir=$3; out=$(mktemp -d /tmp/arr41-same.XXXXXX); fails=0; runs=0
for input in $dir/*.json $dir/*.jsonl; do
  gzip -c $input > $out/in.gz
  for src in $input $out/in.gz; do
    for cmd in "group --format csv" "group --format json" "summary" "list --format csv"; do
      for threads in 1 2; do
        $base $cmd -q --threads $threads -o $out/base.out $src > $out/base.stdout 2> $out/base.stderr; rc0=$?
        caps="avx2"; if [ "$cmd" = "group --format csv" ]; then caps="portable sse2 avx2 avx512"; fi
        for cap in $caps; do
          TXFOLD_MAX_KERNEL=$cap $new $cmd -q --threads $threads -o $out/new.out $src > $out/new.stdout 2> $out/new.stderr; rc1=$?
          runs=$((runs+1))
          if [ $rc0 != $rc1 ] || ! cmp -s $out/base.out $out/new.out || ! cmp -s $out/base.stdout $out/new.stdout || ! cmp -s $out/base.stderr $out/new.stderr; then
            echo "DIFF: $cmd --threads $threads $src (kernel cap $cap): rc $rc0 vs $rc1"; fails=$((fails+1))
          fi
        done
      done
    done
  done
done
echo "same-bytes: $runs runs, $fails differ"
rm -rf $out
