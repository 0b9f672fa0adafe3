#!/usr/bin/env bash
# A fuzzing campaign: every target (or those named) at once, each from its own seeds in a scratch
# corpus that the run grows, for MINUTES minutes; then one table row per target for README.md's
# "Runs" (executions, coverage, result). Build the binary first (Fuzz/build.sh).
#
#   Fuzz/campaign.sh                    # every target, 31 minutes, into /tmp/txfold-campaign
#   MINUTES=5 Fuzz/campaign.sh state zstd
#
# Environment: MINUTES (31), WORK (/tmp/txfold-campaign), FUZZER (.build-fuzz/txfold-fuzz),
# NICE (10: the targets share the machine with whatever else runs; 0 to give them all of it).
# A target's log is WORK/<target>.log; a crash, leak or broken invariant leaves WORK/<target>-crash-*
# (-leak-*, -timeout-*; run the binary on it to see the report); an input slower than 10 s leaves
# -slow-unit-* (counted, not a failure). Exits 1 when any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${MINUTES:-31}
work=${WORK:-/tmp/txfold-campaign}
fuzzer=${FUZZER:-.build-fuzz/txfold-fuzz}
nice=${NICE:-10}
[ -x "$fuzzer" ] || { echo "campaign.sh: $fuzzer is missing; run Fuzz/build.sh first" >&2; exit 1; }
if [ $# -gt 0 ]; then targets=("$@"); else
  targets=()
  for folder in Fuzz/corpus/*/; do targets+=("$(basename "$folder")"); done
fi
mkdir -p "$work"
# Each target's dictionary: the partial formats' for the partial targets, none for zone files,
# rules and raw bytes (their tokens are not JSON's), JSON's for every target that reads a dump.
dictionary() {
  case "$1" in
    partial | partial-run | account-partial | account-partial-run) echo "-dict=Fuzz/partial.dict" ;;
    tzif | posix-rule | outputs | zstd) ;;
    *) echo "-dict=Fuzz/json.dict" ;;
  esac
}
echo "build: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Fuzz || echo ' (with changes)')"
echo "cpu flags: $(grep -m1 -o -w -E 'sse4_2|avx|avx2|bmi2|avx512f|avx512_vbmi2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "$(date -u +%H:%M:%S) ${#targets[@]} targets for $minutes minutes each, all at once (nice $nice)"
pids=()
for target in "${targets[@]}"; do
  [ -d "Fuzz/corpus/$target" ] || { echo "campaign.sh: no Fuzz/corpus/$target" >&2; exit 1; }
  # Artifacts are named <target>-<kind>-<sha>: by kind, since one target's name may begin another's.
  rm -rf "${work:?}/$target" "$work/$target"-{crash,leak,timeout,oom,slow-unit}-* && mkdir -p "$work/$target"
  cp "Fuzz/corpus/$target"/* "$work/$target/"
  # shellcheck disable=SC2046 # an empty dictionary option must vanish, not be an empty argument
  nice -n "$nice" "$fuzzer" "$work/$target" $(dictionary "$target") -max_total_time=$((minutes * 60)) \
    -timeout=20 -rss_limit_mb=1536 -print_final_stats=1 -artifact_prefix="$work/$target-" \
    > "$work/$target.log" 2>&1 &
  pids+=($!)
done
failed=0
for index in "${!targets[@]}"; do
  wait "${pids[$index]}" || failed=1
done
echo "$(date -u +%H:%M:%S) done"
echo "| target | executions | coverage | result |"
echo "|---|---:|---|---|"
for target in "${targets[@]}"; do
  log="$work/$target.log"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<< "$last")
  # libFuzzer also saves an input that ran past 10 s (slow-unit-*): worth a look, not a failure.
  found=$(for kind in crash leak timeout oom; do compgen -G "$work/$target-$kind-*"; done | tr '\n' ' ' || true)
  slow=$(compgen -G "$work/$target-slow-unit-*" | wc -l || true)
  result="no crash, no leak, no invariant broken"
  [ "$slow" -gt 0 ] && result="$result ($slow slow-unit reports)"
  [ -n "$found" ] && result="**found**: $found"
  grep -q 'ERROR: libFuzzer\|ERROR: AddressSanitizer\|==ERROR' "$log" && [ -z "$found" ] && result="**error** (see $log)"
  echo "| $target | $runs | ${cov:-?} edges, ${ft:-?} features | $result |"
done
exit $failed
