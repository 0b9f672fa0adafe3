#!/usr/bin/env bash
# Builds the library's DocC catalog (Sources/TxFold/TxFold.docc) with the toolchain's own docc,
# so a broken symbol link or article reference fails CI. Writes the archive to .build/docs/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
if ! command -v docc > /dev/null; then
  echo "note: docc is not in this toolchain; the documentation was not built"
  exit 0
fi
# A scratch path of its own: the symbol-graph flags would otherwise rebuild the main build folder.
# Its graphs stay beside the build they came from, so a build with nothing to do keeps valid ones.
scratch=.build-docs
graphs="$scratch/symbol-graphs"
mkdir -p "$graphs" "$scratch/library-graphs"
swift build --scratch-path "$scratch" --target TxFold \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" > /dev/null
# Only the library's own module graph: the C targets' graphs are not documented.
rm -f "$scratch"/library-graphs/*.json
cp "$graphs"/TxFold*.json "$scratch/library-graphs/"
mkdir -p .build/docs
docc convert Sources/TxFold/TxFold.docc \
  --fallback-display-name TxFold --fallback-bundle-identifier org.txfold.TxFold \
  --additional-symbol-graph-dir "$scratch/library-graphs" --output-path .build/docs/TxFold.doccarchive \
  > .build/docs.log 2>&1 || { cat .build/docs.log; exit 1; }
# A link to a symbol or article that does not exist fails; other diagnostics (a parameter left
# undocumented) are listed for the reader of the log but do not fail the build.
if grep -E "doesn't exist|Can't resolve|No symbol matched|isn't found" .build/docs.log; then
  echo "docs: unresolved references (above)"
  exit 1
fi
echo "docs: built .build/docs/TxFold.doccarchive ($(grep -c '^warning' .build/docs.log) warnings)"
