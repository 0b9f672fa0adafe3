#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, then the thread sanitizer
# (each in its own build folder). Slow: a few minutes each on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
# Leaks inside the toolchain's libraries are suppressed; a leak in TxFold still fails.
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan.supp:print_suppressions=0"
for sanitizer in address thread; do
  echo "== swift test --sanitize=$sanitizer"
  swift test --sanitize="$sanitizer" --scratch-path ".build-sanitize-$sanitizer"
done
