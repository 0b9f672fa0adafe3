#!/usr/bin/env bash
# Soak run: N generated records (default 20,000,000, about 8.6 GB) through `group`,
# `list` and `group --emit partial` + `merge`, recording wall time and peak memory
# for each beside a 1,000,000-record run, so flat memory shows as equal peaks.
# Needs about 3× the dump's size free under WORK (default /tmp/txfold-soak).
set -euo pipefail
cd "$(dirname "$0")/.."
N="${N:-20000000}"
WORK="${WORK:-/tmp/txfold-soak}"
mkdir -p "$WORK"
swift build -c release --product txfold >/dev/null
TXFOLD="$PWD/.build/release/txfold"
measure() { # label, command...
  local label="$1"; shift
  /usr/bin/time -f "$label: %e s wall, %M KiB peak RSS" "$@" 2>&1 >/dev/null | grep -F "$label:" || true
}
for count in 1000000 "$N"; do
  dump="$WORK/dump-$count.jsonl"
  [ -f "$dump" ] || "$TXFOLD" gen --count "$count" --seed 11 -o "$dump"
  echo "== $count records, $(du -h "$dump" | cut -f1)"
  measure "group" "$TXFOLD" group --quiet --format json -o "$WORK/group-$count.json" "$dump"
  measure "list (sorted, spilled)" "$TXFOLD" list --quiet --format jsonl -o "$WORK/list-$count.jsonl" "$dump"
  # Four shards of whole lines, each folded to a partial, then merged.
  rm -f "$WORK"/shard-* "$WORK"/part-*
  split -n l/4 -d "$dump" "$WORK/shard-"
  for shard in "$WORK"/shard-*; do
    measure "group --emit partial $(basename "$shard")" \
      "$TXFOLD" group --quiet --emit partial -o "$WORK/part-$(basename "$shard")" "$shard"
  done
  measure "merge" "$TXFOLD" merge --quiet --format json -o "$WORK/merged-$count.json" "$WORK"/part-*
  if cmp -s "$WORK/group-$count.json" "$WORK/merged-$count.json"; then echo "merge == group: OK"; else echo "merge == group: MISMATCH"; exit 1; fi
  rows=$(wc -l < "$WORK/list-$count.jsonl")
  echo "list rows: $rows"
  rm -f "$WORK"/shard-* "$WORK"/part-* "$WORK/list-$count.jsonl"
done
