#!/bin/bash
# cgnight.sh NAME STRIPPED_BINARY: callgrind of the tenth-size night and full per-account dedupe run (grp41-data's recipe).
set -e
DATA=/tmp/grp41-data; cd $DATA; name=$1; bin=$2
mem="--memory-limit 96MiB --threads 1 -q --temp-dir $DATA"
cg() { local tag=$1; shift; TXFOLD_MAX_KERNEL=avx2 valgrind --tool=callgrind --callgrind-out-file=cg.$name.$tag $bin "$@" > cg.$name.$tag.log 2>&1; echo "$name $tag: $(grep -o 'refs: .*' cg.$name.$tag.log)"; }
rm -f r.$name.* t.$name.state
cg night group --per-account --format jsonl --state-in ${STATE:-h.state} --state-out t.$name.state -o r.$name.night.jsonl $mem night.jsonl
cg full group --per-account --format jsonl --dedupe -o r.$name.full.jsonl $mem history.jsonl night.jsonl
cmp r.$name.night.jsonl r.$name.full.jsonl && echo "$name: night = full run"
