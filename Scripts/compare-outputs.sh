#!/usr/bin/env bash
# Runs two txfold binaries over the same inputs and fails on the first output that differs:
# the check a refactor owes ("behaviour does not change").
#   Scripts/compare-outputs.sh BEFORE AFTER [INPUT...]
# Without inputs it uses SampleData/, Tests/Fixtures/ and a generated dump. For each input it
# compares, byte for byte, standard output, standard error (timings removed) and the exit code
# of: group in every format, group --emit partial, list and summary.
set -uo pipefail
before=$(realpath "$1"); after=$(realpath "$2"); shift 2
cd "$(dirname "$0")/.."
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
  "$after" gen --count 20000 --seed 7 -o "$work/gen.jsonl"
  set -- SampleData/* $(find Tests/Fixtures -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.gz' \) | sort) "$work/gen.jsonl"
fi
runs=0; differ=0
run() { # label, then arguments
  local label=$1; shift
  for side in before after; do
    local binary=$before; [ $side = after ] && binary=$after
    (cd "$work" && "$binary" "$@" >"$work/$side.out" 2>"$work/$side.err"; echo $? >"$work/$side.rc")
    # The timing line: keep what was read, drop how long it took.
    sed -i -E 's/ in [0-9.]+ (s|ms): .*//' "$work/$side.err"
  done
  runs=$((runs + 1))
  if ! cmp -s "$work/before.out" "$work/after.out" || ! cmp -s "$work/before.err" "$work/after.err" \
     || ! cmp -s "$work/before.rc" "$work/after.rc"; then
    differ=$((differ + 1)); echo "DIFFERS: $label"; diff <(head -c 2000 "$work/before.err") <(head -c 2000 "$work/after.err") | head -5
  fi
}
for input in "$@"; do
  file=$(realpath "$input")
  for format in text json jsonl csv html; do run "group --format $format $input" group --format "$format" "$file"; done
  run "group --emit partial $input" group --emit partial "$file"
  run "list $input" list --format json "$file"
  run "summary $input" summary --format json "$file"
done
echo "$runs runs, $differ differ"
[ "$differ" -eq 0 ]
