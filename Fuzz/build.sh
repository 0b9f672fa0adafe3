#!/usr/bin/env bash
# Builds the libFuzzer target: the library's sources and Fuzz/FuzzEntry.swift
# compiled as one module with the fuzzer and address sanitizer.
# (SwiftPM cannot link an executable without `main` against libFuzzer's, so swiftc is called directly.)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build-fuzz
# The scanner's C kernels, instrumented the same way (libFuzzer's main comes from the Swift link).
"$(dirname "$(command -v swiftc)")/clang" -O1 -g -fsanitize=fuzzer-no-link,address \
  -I Sources/CJSONIndex/include -c Sources/CJSONIndex/json_index.c -o .build-fuzz/json_index.o
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name TxFoldFuzz \
  -I Sources/CZlib -I Sources/CJSONIndex/include -lz .build-fuzz/json_index.o \
  $(find Sources/TxFold -name '*.swift' | sort) Fuzz/FuzzEntry.swift \
  -o .build-fuzz/txfold-fuzz
echo ".build-fuzz/txfold-fuzz"
