#!/usr/bin/env bash
# cg.sh BIN LABEL DUMP FMT MODE : callgrind one run (one thread, AVX2); dedupe split at findLosers
B=$1; L=$2; D=$3; F=$4; M=$5
export TXFOLD_MAX_KERNEL=avx2
W=/tmp/dd42
extra=(); split=()
if [[ $M == dedupe ]]; then extra=(--dedupe --memory-limit 96MiB); split=(--dump-before='*DuplicateFinder*findLosers*'); fi
valgrind --tool=callgrind --compress-strings=no --compress-pos=no "${split[@]}" --callgrind-out-file=$W/cg-$L-$D-$F-$M.out $B group --format $F --threads 1 "${extra[@]}" /tmp/dd37/$D.jsonl > $W/o-$L-$D-$F-$M 2> $W/cg-$L-$D-$F-$M.log
grep -h "^summary\|^totals" $W/cg-$L-$D-$F-$M.out* | tr '\n' ' '; echo " $L $D $F $M"
