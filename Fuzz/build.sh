#!/usr/bin/env bash
# Builds the libFuzzer target .build-fuzz/txfold-fuzz: the library's sources and Fuzz/*.swift
# compiled as one module with the fuzzer and address sanitizer, and the scanner's C kernels
# instrumented the same way.
#
# SwiftPM cannot link an executable without `main` against libFuzzer's own `main`, so swiftc is
# called directly. Compiling the entry points into the library's module (rather than importing it)
# lets them reach internal API such as the TZif parser; the flags below mirror what Package.swift
# gives the TxFold target, so an API change breaks this build the way it breaks the tests.
#
# Environment: FUZZ_OPT (default -O; -Onone builds faster and runs about ten times slower),
# FUZZ_OUT (default .build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
swiftc="$(command -v swiftc)" || { echo "build.sh: swiftc not found" >&2; exit 1; }
# libFuzzer ships with the toolchain's clang (lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a), not the system's.
clang="$(dirname "$swiftc")/clang"
[ -x "$clang" ] || { echo "build.sh: the toolchain's clang is missing next to $swiftc" >&2; exit 1; }

out="${FUZZ_OUT:-.build-fuzz}"
opt="${FUZZ_OPT:--O}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# The C targets CJSONIndex (the token index's vector kernels) and CCRC32 (the state's checksum),
# with coverage and ASan but without libFuzzer's main, which comes in with the Swift link.
"$clang" -O1 -g -fsanitize=fuzzer-no-link,address \
  -I Sources/CJSONIndex/include -c Sources/CJSONIndex/json_index.c -o "$out/json_index.o"
"$clang" -O1 -g -fsanitize=fuzzer-no-link,address \
  -I Sources/CCRC32/include -c Sources/CCRC32/crc32.c -o "$out/crc32.o"

# -package-name: the library uses `package` access (like SwiftPM, which names the package);
# -swift-version 6: the language mode Package.swift's tools version gives the target.
# -wmo: one whole-module job; without it swiftc type-checks the module again for each of the ~250
# files, several times slower on two cores. It runs inside "$out", with absolute paths, because a
# whole-module build with -g leaves TxFoldFuzz-1.swiftmodule (and .swiftdoc, .swiftsourceinfo) in
# the working directory. The fuzz files' absolute paths also let #filePath find the fixtures.
# Do not edit the sources while it builds: swiftc refuses to link a file that changed under it.
# shellcheck disable=SC2046 # the file lists are word-split on purpose (no spaces in these paths)
(
  cd "$out"
  "$swiftc" "$opt" -wmo -num-threads 2 -g -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -module-name TxFoldFuzz -package-name TxFold -D TXFOLD_INVARIANTS \
    -I "$root/Sources/CZlib" -I "$root/Sources/CZstd" -I "$root/Sources/CJSONIndex/include" -I "$root/Sources/CCRC32/include" -lz -lzstd json_index.o crc32.o \
    $(find "$root/Sources/TxFold" -name '*.swift' | sort) $(find "$root/Fuzz" -maxdepth 1 -name '*.swift' | sort) \
    -o txfold-fuzz
)
echo "$out/txfold-fuzz"
