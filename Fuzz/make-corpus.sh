#!/usr/bin/env bash
# Rewrites the seed corpus Fuzz/corpus/<target>/ from the test fixtures, with this tree's writers
# (the partial seeds are written by the library itself): the fuzz binary does it when
# TXFOLD_FUZZ_MAKE_CORPUS names a folder (Fuzz/FuzzCorpus.swift). Run Fuzz/build.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .build-fuzz/txfold-fuzz ] || { echo "make-corpus.sh: run Fuzz/build.sh first" >&2; exit 1; }
rm -rf Fuzz/corpus
TXFOLD_FUZZ_MAKE_CORPUS="$(pwd)/Fuzz/corpus" .build-fuzz/txfold-fuzz
du -sh Fuzz/corpus
