#!/usr/bin/env bash
# The token index's vector kernels against its portable kernel, byte for byte
# (Tests/CJSONIndexDifferential/index_differential.c):
#   1. natively, every x86 kernel this CPU has (or NEON, on an arm64 machine),
#      as cc and as clang compile them;
#   2. the NEON kernel, cross-compiled with Debian's gcc-aarch64-linux-gnu (and
#      with clang, when there is one) and run under qemu-aarch64 (qemu-user), so
#      it is checked on an x86 machine.
# Inputs: generated ones, then every line of the fixtures, the sample data and
# the peers' files (../shared/peers, when present), gzip ones inflated first.
# Exits 1 on any disagreement. The cross step installs its packages when run as
# root with apt-get, and is skipped with a note (exit 0) when they cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-neon
mkdir -p "$scratch"
sources=(Sources/CJSONIndex/json_index.c Tests/CJSONIndexDifferential/index_differential.c)
cflags=(-O2 -Wall -Wextra -I Sources/CJSONIndex/include)

# The input files, inflated where gzip (a damaged one gives what inflates before the damage).
inputs="$scratch/inputs"
rm -rf "$inputs"
mkdir -p "$inputs"
files=()
peers="${TXFOLD_PEERS:-../shared/peers}"
search=(Tests/Fixtures SampleData)
if [ -d "$peers" ]; then search+=("$peers"); else echo "note: no peers' files at $peers; checking the repository's own"; fi
while IFS= read -r -d '' file; do
  case "$file" in
    *.gz)
      inflated="$inputs/$(printf '%s' "$file" | tr '/' '_' | sed 's/\.gz$//')"
      gzip -dc "$file" > "$inflated" 2> /dev/null || true
      files+=("$inflated")
      ;;
    *) files+=("$file") ;;
  esac
done < <(find "${search[@]}" -type f \( -name '*.jsonl' -o -name '*.json' -o -name '*.gz' \) -print0 | sort -z)
echo "neon-check: ${#files[@]} input files"

status=0

# 1. Natively, with the system's C compiler and with clang (which builds the package's C target).
compilers=()
for compiler in cc clang; do
  if command -v "$compiler" > /dev/null; then compilers+=("$compiler"); fi
done
for compiler in ${compilers[@]+"${compilers[@]}"}; do
  "$compiler" "${cflags[@]}" "${sources[@]}" -o "$scratch/index_differential-$compiler"
  echo "== native ($(uname -m)), compiled by $compiler"
  "$scratch/index_differential-$compiler" ${files[@]+"${files[@]}"} || status=1
done
if [ ${#compilers[@]} -eq 0 ]; then echo "note: no C compiler on PATH; the native comparison was skipped"; fi

# 2. NEON under qemu-aarch64.
if [ "$(uname -m)" != aarch64 ]; then
  if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
      export DEBIAN_FRONTEND=noninteractive
      { apt-get update -q && apt-get install -y -q gcc-aarch64-linux-gnu qemu-user; } > "$scratch/apt.log" 2>&1 ||
        echo "note: apt-get could not install gcc-aarch64-linux-gnu qemu-user (see $scratch/apt.log)"
    fi
  fi
  if command -v aarch64-linux-gnu-gcc > /dev/null && command -v qemu-aarch64 > /dev/null; then
    aarch64-linux-gnu-gcc -static "${cflags[@]}" "${sources[@]}" -o "$scratch/index_differential-aarch64"
    echo "== aarch64 under qemu-aarch64"
    qemu-aarch64 "$scratch/index_differential-aarch64" ${files[@]+"${files[@]}"} || status=1
    # The kernel again as clang compiles it (the compiler of Swift toolchains and of Apple's),
    # linked by the cross gcc; where clang is missing, gcc's build above is the check.
    clang=$(command -v clang || true)
    if [ -n "$clang" ] && "$clang" --target=aarch64-linux-gnu "${cflags[@]}" -c Sources/CJSONIndex/json_index.c \
      -o "$scratch/json_index-clang-aarch64.o" 2> "$scratch/clang.log"; then
      aarch64-linux-gnu-gcc -static "${cflags[@]}" "$scratch/json_index-clang-aarch64.o" \
        Tests/CJSONIndexDifferential/index_differential.c -o "$scratch/index_differential-aarch64-clang"
      echo "== aarch64 under qemu-aarch64, kernel compiled by clang"
      qemu-aarch64 "$scratch/index_differential-aarch64-clang" ${files[@]+"${files[@]}"} || status=1
    else
      echo "note: no clang that targets aarch64; the NEON kernel was checked as gcc compiles it only"
    fi
  else
    echo "SKIPPED: the NEON kernel was not checked: gcc-aarch64-linux-gnu and qemu-user are not installed" \
      "and could not be (needs root and apt-get)"
  fi
fi

if [ "$status" -ne 0 ]; then
  echo "neon-check: FAILED: a kernel disagrees with the portable kernel (or a check could not run)"
else
  echo "neon-check: every kernel checked agrees with the portable kernel"
fi
exit "$status"
