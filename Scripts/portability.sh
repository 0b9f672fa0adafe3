#!/usr/bin/env bash
# Portability guard for the package, which must build on Linux (glibc and musl) and on the Apple
# platforms Package.swift declares, tests included. Three checks:
#   1. Glibc: fails on any use of Glibc outside a branch of `#if canImport(Glibc)`,
#      `#if canImport(Musl)` or `#if os(Linux)`:
#      - `import Glibc` or a name qualified with `Glibc.`;
#      - a glibc or Linux-only function, constant or field (GNU extensions, Linux system calls,
#        glibc's stat field names, the 64-bit `…64` variants), which musl or Darwin lack or spell
#        differently.
#   2. Newer APIs: fails on an API that Apple's systems have only from macOS 14 / iOS 17 or later
#      (Int128, Mutex, Atomic, Span, String(validating:as:), discarding task groups, …, and
#      ExactDecimal's Int128 accessor) outside a declaration marked `@available(macOS 15, …)` or
#      later, an `if #available(macOS 15, …)` block, or `#if os(Linux)`.
#   3. The platform layer: fails on `import Glibc`, `import Musl` or `import Darwin` (guarded or not)
#      in a file of Sources/ outside Sources/TxFold/Platform/. The library and the CLI reach the C
#      library only through the wrappers there (`SystemCalls`, `FileStatus`, `SignalSet`); tests,
#      examples and benchmarks may keep their own guarded imports.
# Comments are ignored. A line that ends with `// portable: <why>` is exempt from check 2 (for a
# name the check cannot tell apart, such as Foundation's `Decimal.significand`). Files listed in
# Scripts/portability-allowlist.txt are reported but do not fail check 1 (that list must stay empty).
#
# Usage: Scripts/portability.sh [DIRECTORY...]
# With no directory: check 1 over Sources, Tests, Examples, Benchmarks and Fuzz; check 2 over
# Sources, Tests and Examples, everything an app's or a Mac developer's `swift build`/`swift test`
# of this package compiles at its declared platforms. Benchmarks/ is a nested package that no app
# builds and that declares macOS 15 itself (package-benchmark's floor), and Fuzz/ builds only with
# libFuzzer on Linux, so check 2 leaves them out. With directories, both checks run over them.
set -euo pipefail
cd "$(dirname "$0")/.."

allowlist=Scripts/portability-allowlist.txt
directories=("$@")
newer_directories=("$@")
if [ ${#directories[@]} -eq 0 ]; then
  directories=(Sources Tests Examples Benchmarks Fuzz)
  newer_directories=(Sources Tests Examples)
fi

# Swift files under the given directories, without build outputs or checked-out dependencies.
swift_files() {
  find "$@" \( -name .build -o -name '.build-*' -o -name .swiftpm \) -prune -o -name '*.swift' -print0 | sort -z
}

# Glibc or Linux only: absent from Darwin's libc or musl, or named differently there.
linux_only='memrchr|rawmemchr|mempcpy|strchrnul|secure_getenv|pipe2|accept4|dup3|fallocate|posix_fadvise'
linux_only+='|sendfile|splice|vmsplice|copy_file_range|memfd_create|statx|renameat2|syncfs|get_nprocs'
linux_only+='|get_nprocs_conf|sched_getaffinity|sched_setaffinity|gettid|prctl|mallinfo|mallinfo2'
linux_only+='|malloc_usable_size|malloc_trim|program_invocation_name|program_invocation_short_name'
linux_only+='|__errno_location|epoll_create1?|epoll_ctl|epoll_wait|inotify_init1?|inotify_add_watch|eventfd'
linux_only+='|signalfd|timerfd_create|timerfd_settime|O_DIRECT|O_TMPFILE|O_NOATIME|O_PATH|O_LARGEFILE'
linux_only+='|MAP_POPULATE|MAP_HUGETLB|MADV_HUGEPAGE|SOCK_CLOEXEC|SOCK_NONBLOCK|MSG_NOSIGNAL'
linux_only+='|st_mtim|st_atim|st_ctim|stat64|fstat64|lstat64|open64|lseek64|pread64|pwrite64|off64_t'

violations=$(
  swift_files "${directories[@]}" | xargs -0 awk -v symbols="$linux_only" '
    function guarding(text) { return text ~ /canImport\((Glibc|Musl)\)|os\(Linux\)/ }
    function report(what) { printf "%s:%d: %s\n", FILENAME, FNR, what }
    FNR == 1 { depth = 0 }
    /^[ \t]*#if[ \t(]/ { depth++; guard[depth] = guarding($0); next }
    /^[ \t]*#elseif[ \t(]/ { guard[depth] = guarding($0); next }
    /^[ \t]*#else/ { guard[depth] = 0; next }
    /^[ \t]*#endif/ { if (depth > 0) depth--; next }
    {
      for (level = 1; level <= depth; level++) if (guard[level]) next
      line = $0
      sub(/\/\/.*/, "", line)
      if (line ~ /^[ \t]*(@[A-Za-z]+[ \t]+)*import[ \t]+(struct[ \t]+|func[ \t]+|var[ \t]+)?Glibc([ \t.]|$)/) {
        report("import Glibc")
      } else if (line ~ /(^|[^A-Za-z0-9_])Glibc\./) {
        report("name qualified with Glibc.")
      } else if (match(line, "(^|[^A-Za-z0-9_])(" symbols ")([^A-Za-z0-9_]|$)")) {
        found = substr(line, RSTART, RLENGTH)
        gsub(/^[^A-Za-z0-9_]|[^A-Za-z0-9_]$/, "", found)
        report("glibc or Linux only: " found)
      }
    }'
)

# APIs that Apple's systems have only from macOS 14 / iOS 17 or later, later than Package.swift's
# `platforms:` (macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1), taken from the availability
# attributes of the standard library's and Concurrency's interfaces: types and functions by name
# (Int128 and UInt128, the Synchronization module, Span and its kin, InlineArray, RangeSet,
# discarding task groups, task executors), and calls by their labels (String(validating:as:),
# the RangeSet operations, named tasks, immediate tasks). `ExactDecimal(significand:` and
# `.significand` are ExactDecimal's Int128 accessor (use `significandHigh`/`significandLow`).
# Allowed inside a declaration marked `@available(macOS 15, …)` or later or an
# `if #available(macOS 15, …)` block (the braces that follow it), and inside `#if os(Linux)`.
newer_apis='Int128|UInt128|Mutex|Atomic|AtomicLazyReference|WordPair|Span|MutableSpan|RawSpan|MutableRawSpan'
newer_apis+='|OutputSpan|UTF8Span|InlineArray|RangeSet|DiscontiguousSlice|DiscardingTaskGroup'
newer_apis+='|ThrowingDiscardingTaskGroup|withDiscardingTaskGroup|withThrowingDiscardingTaskGroup|TaskExecutor'
newer_apis+='|withTaskExecutorPreference|ExecutorJob'
# (Regular expressions without backslashes, which awk -v would take as escapes: [(] and [.] are a
# literal parenthesis and dot.)
newer_calls='String[[:space:]]*[(][[:space:]]*validating:|(removeSubranges|moveSubranges|removingSubranges)[[:space:]]*[(]'
newer_calls+='|indices[[:space:]]*[(][[:space:]]*(where|of):'
newer_calls+='|(Task|detached|addTask|addTaskUnlessCancelled)[[:space:]]*[(][[:space:]]*name:'
newer_calls+='|Task[.](immediate|immediateDetached)|ExactDecimal[[:space:]]*[(][[:space:]]*significand:'
# Members, after any receiver: ExactDecimal's Int128 accessor.
newer_members='[.]significand([^A-Za-z0-9_]|$)'
newer_violations=$(
  swift_files "${newer_directories[@]}" | xargs -0 awk -v symbols="$newer_apis" -v calls="$newer_calls" -v members="$newer_members" '
    function report(what) { printf "%s:%d: %s\n", FILENAME, FNR, what }
    FNR == 1 { depth = 0; braces = 0; pending = 0; guardedAt = -1 }
    /^[ \t]*#if[ \t(]/ { depth++; linux[depth] = ($0 ~ /os\(Linux\)/); next }
    /^[ \t]*#elseif[ \t(]/ { linux[depth] = ($0 ~ /os\(Linux\)/); next }
    /^[ \t]*#else/ { linux[depth] = 0; next }
    /^[ \t]*#endif/ { if (depth > 0) depth--; next }
    {
      line = $0
      exempt = (line ~ /\/\/[ \t]*portable:/)
      sub(/\/\/.*/, "", line)
      gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
      if (line ~ /[@#]available\((macOS|iOS|tvOS|watchOS|visionOS)[ \t]+/ && line !~ /unavailable/) {
        if (match(line, /macOS[ \t]+[0-9]+/)) {
          version = substr(line, RSTART, RLENGTH); gsub(/[^0-9]/, "", version)
          if (version + 0 >= 15) pending = 1
        }
      }
      inLinux = 0
      for (level = 1; level <= depth; level++) if (linux[level]) inLinux = 1
      guarded = inLinux || guardedAt >= 0 || pending || exempt
      if (!guarded && match(line, "(^|[^A-Za-z0-9_])(" symbols ")([^A-Za-z0-9_]|$)")) {
        found = substr(line, RSTART, RLENGTH)
        gsub(/^[^A-Za-z0-9_]|[^A-Za-z0-9_]$/, "", found)
        report("newer than the declared platforms: " found)
      } else if (!guarded && (match(line, "(^|[^A-Za-z0-9_])(" calls ")") || match(line, members))) {
        found = substr(line, RSTART, RLENGTH)
        gsub(/^[^A-Za-z0-9_.]|[^A-Za-z0-9_:]$/, "", found)
        report("newer than the declared platforms: " found)
      }
      if (!guarded && line ~ /^[ \t]*import[ \t]+Synchronization/) report("newer than the declared platforms: import Synchronization")
      # Braces in the order they come, so that `} else {` ends the guard of an `if #available` block.
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "{") {
          if (pending) { guardedAt = braces; pending = 0 }
          braces++
        } else if (c == "}") {
          braces--
          if (guardedAt >= 0 && braces <= guardedAt) guardedAt = -1
        }
      }
    }'
)
newer_failing=0
while IFS= read -r violation; do
  [ -n "$violation" ] || continue
  echo "NOT AVAILABLE ON THE DECLARED PLATFORMS: $violation"
  newer_failing=$((newer_failing + 1))
done <<< "$newer_violations"

# Check 3: the C library is imported only by the platform layer. Always over all of Sources (the
# rule is about the package's own layout, whatever directories were given).
platform_layer=Sources/TxFold/Platform/
layer_violations=$(
  find Sources \( -name .build -o -name '.build-*' \) -prune -o -name '*.swift' -print0 | sort -z |
    xargs -0 awk -v layer="$platform_layer" '
      index(FILENAME, layer) == 1 { nextfile }
      {
        line = $0
        sub(/\/\/.*/, "", line)
        if (line ~ /^[ \t]*(@[A-Za-z_]+(\([^)]*\))?[ \t]+)*import[ \t]+((struct|class|enum|protocol|typealias|func|var|let)[ \t]+)?(Glibc|Musl|Darwin)([ \t.]|$)/) {
          module = line
          sub(/.*import[ \t]+((struct|class|enum|protocol|typealias|func|var|let)[ \t]+)?/, "", module)
          sub(/[ \t.].*/, "", module)
          printf "%s:%d: import %s\n", FILENAME, FNR, module
        }
      }'
)
layer_failing=0
while IFS= read -r violation; do
  [ -n "$violation" ] || continue
  echo "OUTSIDE THE PLATFORM LAYER: $violation"
  layer_failing=$((layer_failing + 1))
done <<< "$layer_violations"

allowed() {
  [ -f "$allowlist" ] && grep -v '^[[:space:]]*#' "$allowlist" | grep -qxF "$1"
}

failing=0
allowed_count=0
while IFS= read -r violation; do
  [ -n "$violation" ] || continue
  file=${violation%%:*}
  if allowed "$file"; then
    echo "allowed for now (Scripts/portability-allowlist.txt): $violation"
    allowed_count=$((allowed_count + 1))
  else
    echo "NOT PORTABLE: $violation"
    failing=$((failing + 1))
  fi
done <<< "$violations"

# Entries that no longer need to be there.
if [ -f "$allowlist" ]; then
  while IFS= read -r entry; do
    if ! grep -q "^$entry:" <<< "$violations"; then
      echo "note: $entry is portable now: remove it from $allowlist"
    fi
  done < <(grep -v '^[[:space:]]*#' "$allowlist" | grep -v '^[[:space:]]*$')
fi

if [ "$newer_failing" -ne 0 ]; then
  echo "portability: FAILED: $newer_failing uses of an API newer than the declared platforms (use the two-word" \
    "significand, WideInt, or mark the declaration @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *))"
  exit 1
fi
if [ "$layer_failing" -ne 0 ]; then
  echo "portability: FAILED: $layer_failing imports of the C library outside $platform_layer (call the wrappers" \
    "there, SystemCalls and its kin, or add one)"
  exit 1
fi
if [ "$failing" -ne 0 ]; then
  echo "portability: FAILED: $failing unguarded Glibc or Linux-only uses (wrap them in #if canImport(Glibc) /" \
    "canImport(Musl) / canImport(Darwin), or move them into the platform layer)"
  exit 1
fi
echo "portability: ok: no unguarded Glibc use in ${directories[*]} outside the allowlist ($allowed_count allowed for now);" \
  "no API newer than the declared platforms in ${newer_directories[*]} outside @available(macOS 15, …) or #if os(Linux);" \
  "no import of Glibc, Musl or Darwin in Sources outside $platform_layer"
