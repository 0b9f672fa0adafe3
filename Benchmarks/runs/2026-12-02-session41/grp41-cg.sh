#!/bin/bash
# cg.sh NAME BINARY: strip a copy, run callgrind (one thread) on the four runs of
# grp41's comparison; reports and states compared with base's.
set -e
DATA=${DATA:-/tmp/grp41-data}; cd "$DATA"
name=$1; bin=$2
[ "$bin" = keep ] || strip --strip-debug -o "$DATA/$name-s" "$bin"
mem="--memory-limit 96MiB --threads 1 -q --temp-dir $DATA"
cg() { # tag, args...
  local tag=$1; shift
  valgrind --tool=callgrind --callgrind-out-file=cg.$name.$tag ./$name-s "$@" > cg.$name.$tag.log 2>&1
  echo "$name $tag: $(grep -o 'refs: .*' cg.$name.$tag.log)"
}
rm -f r.$name.* t.$name.state
cg night group --per-account --format jsonl --state-in h.state --state-out t.$name.state -o r.$name.night.jsonl $mem night.jsonl
cg full group --per-account --format jsonl --dedupe -o r.$name.full.jsonl $mem history.jsonl night.jsonl
cg pacsv group --per-account --format csv -o r.$name.pacsv.csv $mem shuf200k.jsonl
cg json group --format json -o r.$name.json.json --threads 1 -q shuf200k.jsonl
cmp r.$name.night.jsonl r.$name.full.jsonl && echo "$name: night = full run"
if [ "$name" != base ]; then
  for f in night.jsonl full.jsonl pacsv.csv json.json; do cmp r.base.$f r.$name.$f; done
  cmp t.base.state t.$name.state && echo "$name: reports and state bytes = base's"
fi
