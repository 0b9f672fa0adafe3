#!/usr/bin/env bash
# The test of Examples/app-client, the library used as an app uses it: a package of its own that
# depends on TxFold by path, builds (its own .build, so the library is compiled once more, about
# a minute on 2 cores), and groups the sample user from a Data download, from a stream of
# 100-byte chunks (AsyncSequence) and stops an endless stream by cancelling its task. Its output,
# for the plain file and for a gzip copy of it (compression is detected from the bytes), must
# equal expected.txt line for line.
#
# It also checks that an app depending on the library only builds nothing of
# swift-argument-parser (the txfold tool's dependency, behind TxFold's default CommandLineTool
# trait, which Package.swift turns off with `traits: []`): the build log names neither the
# package nor its plugins (GenerateManual, GenerateDoccReference) beyond resolving it, and
# nothing of it is checked out. The build has a scratch directory of its own (.build-library-only), so a build made before
# the trait existed cannot hide or fake anything.
#
#   Examples/app-client/test.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scratch="$here/.build-library-only"
swift build --package-path "$here" --scratch-path "$scratch" 2>&1 | tee "$work/build.log" >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "FAIL: the app client does not build"; exit 1; }
client="$(swift build --package-path "$here" --scratch-path "$scratch" --show-bin-path)/AppClient"
# Resolving the package graph may fetch the repository into SwiftPM's cache and the scratch
# directory's repositories/ (lines "Fetching …", "Fetched …"); that is not a build. Any other line
# that names it — a checkout, a compiled module or plugin — fails.
if grep -iE 'argument-parser|ArgumentParser|GenerateManual|GenerateDoccReference' "$work/build.log" |
  grep -vE '^(Fetching|Fetched|Updating|Updated) [^ ]*swift-argument-parser'; then
  echo "FAIL: building an app that depends on the TxFold library built part of swift-argument-parser (above)"
  exit 1
fi
if [ -e "$scratch/checkouts/swift-argument-parser" ]; then
  echo "FAIL: swift-argument-parser was checked out for an app that depends on the TxFold library only"
  exit 1
fi
echo "ok: the app's build compiled nothing of swift-argument-parser"
sample="$root/SampleData/user-10015-grouped-mixed.jsonl"
gzip -c "$sample" > "$work/sample.jsonl.gz"

failures=0
for input in "$sample" "$work/sample.jsonl.gz"; do
  if ! "$client" "$input" > "$work/out.txt"; then
    echo "FAIL: AppClient exited with $? on $(basename "$input")"
    failures=$((failures + 1))
  elif ! diff -u "$here/expected.txt" "$work/out.txt"; then
    echo "FAIL: AppClient's output on $(basename "$input") differs from expected.txt"
    failures=$((failures + 1))
  else
    echo "ok: AppClient on $(basename "$input")"
  fi
done
if [ "$failures" -ne 0 ]; then
  echo "app-client: FAILED ($failures)"
  exit 1
fi
echo "app-client: ok"
