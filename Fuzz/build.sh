#!/usr/bin/env bash
# Builds the libFuzzer target: the library's sources and Fuzz/FuzzEntry.swift
# compiled as one module with the fuzzer and address sanitizer.
# (SwiftPM cannot link an executable without `main` against libFuzzer's, so swiftc is called directly.)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build-fuzz
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name TxFoldFuzz \
  -I Sources/CZlib -lz \
  $(find Sources/TxFold -name '*.swift' | sort) Fuzz/FuzzEntry.swift \
  -o .build-fuzz/txfold-fuzz
echo ".build-fuzz/txfold-fuzz"
