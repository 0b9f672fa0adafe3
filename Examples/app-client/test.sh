#!/usr/bin/env bash
# The test of Examples/app-client, the library used as an app uses it: a package of its own that
# depends on TxFold by path, builds (its own .build, so the library is compiled once more, about
# a minute on 2 cores), and groups the sample user from a Data download, from a stream of
# 100-byte chunks (AsyncSequence) and stops an endless stream by cancelling its task. Its output,
# for the plain file and for a gzip copy of it (compression is detected from the bytes), must
# equal expected.txt line for line.
#
#   Examples/app-client/test.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

swift build --package-path "$here" >&2
client="$(swift build --package-path "$here" --show-bin-path)/AppClient"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
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
