#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, then the thread sanitizer
# (each in its own build folder). Slow: a few minutes each on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
for sanitizer in address thread; do
  echo "== swift test --sanitize=$sanitizer"
  swift test --sanitize="$sanitizer" --scratch-path ".build-sanitize-$sanitizer"
done
