#!/usr/bin/env bash
# Portability guard for the library (Sources/TxFold), which must build on Linux
# (glibc and musl) and Apple platforms: fails on any use of Glibc outside a
# branch of `#if canImport(Glibc)`, `#if canImport(Musl)` or `#if os(Linux)`:
#   - `import Glibc` or a name qualified with `Glibc.`;
#   - a glibc or Linux-only function, constant or field (GNU extensions,
#     Linux system calls, glibc's stat field names, the 64-bit `…64` variants),
#     which musl or Darwin lack or spell differently.
# It also fails on an API that Apple's systems have only from macOS 15 / iOS 18 on (Int128,
# Mutex, Atomic, Span, …) outside an `@available(macOS 15, …)` declaration or `#if os(Linux)`.
# Comments are ignored. Files listed in Scripts/portability-allowlist.txt are
# reported but do not fail the check (for now: that list must shrink to empty).
# Usage: Scripts/portability.sh [DIRECTORY...] (default: Sources/TxFold).
set -euo pipefail
cd "$(dirname "$0")/.."

allowlist=Scripts/portability-allowlist.txt
directories=("$@")
if [ ${#directories[@]} -eq 0 ]; then directories=(Sources/TxFold); fi

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
  find "${directories[@]}" -name '*.swift' -print0 | sort -z | xargs -0 awk -v symbols="$linux_only" '
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

# APIs that Apple's systems have only from macOS 15 / iOS 18 on, later than Package.swift's
# `platforms:` (macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1): Int128 and UInt128, the
# Synchronization module (Mutex, Atomic), Span and InlineArray. Allowed inside a declaration marked
# `@available(macOS 15, …)` or later (the braces that follow it) and inside `#if os(Linux)`.
newer_apis='Int128|UInt128|Mutex|Atomic|AtomicLazyReference|Span|MutableSpan|RawSpan|InlineArray'
newer_violations=$(
  find "${directories[@]}" -name '*.swift' -print0 | sort -z | xargs -0 awk -v symbols="$newer_apis" '
    function report(what) { printf "%s:%d: %s\n", FILENAME, FNR, what }
    FNR == 1 { depth = 0; braces = 0; pending = 0; guardedAt = -1 }
    /^[ \t]*#if[ \t(]/ { depth++; linux[depth] = ($0 ~ /os\(Linux\)/); next }
    /^[ \t]*#elseif[ \t(]/ { linux[depth] = ($0 ~ /os\(Linux\)/); next }
    /^[ \t]*#else/ { linux[depth] = 0; next }
    /^[ \t]*#endif/ { if (depth > 0) depth--; next }
    {
      line = $0
      sub(/\/\/.*/, "", line)
      gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
      if (line ~ /@available\((macOS|iOS|tvOS|watchOS|visionOS)[ \t]+/ && line !~ /unavailable/) {
        if (match(line, /macOS[ \t]+[0-9]+/)) {
          version = substr(line, RSTART, RLENGTH); gsub(/[^0-9]/, "", version)
          if (version + 0 >= 15) pending = 1
        }
      }
      inLinux = 0
      for (level = 1; level <= depth; level++) if (linux[level]) inLinux = 1
      guarded = inLinux || guardedAt >= 0 || pending
      if (!guarded && match(line, "(^|[^A-Za-z0-9_])(" symbols ")([^A-Za-z0-9_]|$)")) {
        found = substr(line, RSTART, RLENGTH)
        gsub(/^[^A-Za-z0-9_]|[^A-Za-z0-9_]$/, "", found)
        report("needs macOS 15 / iOS 18: " found)
      }
      if (!guarded && line ~ /^[ \t]*import[ \t]+Synchronization/) report("needs macOS 15 / iOS 18: import Synchronization")
      opened = gsub(/\{/, "{", line)
      closed = gsub(/\}/, "}", line)
      if (pending && opened > 0) { guardedAt = braces; pending = 0 }
      braces += opened - closed
      if (guardedAt >= 0 && braces <= guardedAt) guardedAt = -1
    }'
)
newer_failing=0
while IFS= read -r violation; do
  [ -n "$violation" ] || continue
  echo "NOT AVAILABLE ON THE DECLARED PLATFORMS: $violation"
  newer_failing=$((newer_failing + 1))
done <<< "$newer_violations"

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
if [ "$failing" -ne 0 ]; then
  echo "portability: FAILED: $failing unguarded Glibc or Linux-only uses (wrap them in #if canImport(Glibc) /" \
    "canImport(Musl) / canImport(Darwin), or move them into the platform layer)"
  exit 1
fi
echo "portability: ok (${directories[*]}): no unguarded Glibc use outside the allowlist ($allowed_count allowed for now)," \
  "no API newer than the declared platforms outside @available(macOS 15, …) or #if os(Linux)"
