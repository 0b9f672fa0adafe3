#!/bin/bash
# dd43-perf.sh LABEL:BIN ... : perf record -e cpu-clock (4 kHz, the only event here) of one-thread `group --format csv
# [--dedupe --memory-limit 96MiB]` on $DUMP, AVX2 kernel, builds interleaved, $ROUNDS rounds; per-symbol sample
# counts into $OUT/sym-LABEL-MODE-ROUND.txt (compare two with dd43-perfcmp.py A B [rows]).
DUMP=${DUMP:-/tmp/dd43/r2000.jsonl}; ROUNDS=${ROUNDS:-2}; OUT=${OUT:-/tmp/dd43/perf}; MODES=${MODES:-"dedupe"}
mkdir -p $OUT; export TXFOLD_MAX_KERNEL=avx2
for r in $(seq 1 $ROUNDS); do for m in $MODES; do for b in "$@"; do
  lab=${b%%:*}; bin=${b#*:}; extra=""; [ $m = dedupe ] && extra="--dedupe --memory-limit 96MiB"
  perf record -q -e cpu-clock -F 4000 -o $OUT/p.data $bin group --format csv --threads 1 $extra $DUMP > $OUT/out-$lab-$m 2>/dev/null
  perf report -i $OUT/p.data --no-children --sort sym -F sample,sym 2>/dev/null | grep -v "^#" | grep -v "^$" | sed 's/^ *//; s/  */ /g' > $OUT/sym-$lab-$m-$r.txt
  echo "$lab $m round $r: $(awk '{s+=$1} END {print s}' $OUT/sym-$lab-$m-$r.txt) samples, load $(cut -d' ' -f1 /proc/loadavg)"
done; done; done
