#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, then the thread sanitizer (each in its
# own build folder): every test target — TxFoldTests, LibraryAPITests (many tasks grouping at
# once, async streams, cancellation) and EndToEndTests, whose `txfold` binary is built with the
# same sanitizer, so the CLI's worker threads are checked too. A sanitizer report fails the run.
#
#   Scripts/sanitize.sh            # address, then thread
#   Scripts/sanitize.sh thread     # one of them
#
# Slow, so CI does not run it: the thread sanitizer's run took 11 minutes on 2 cores (about 1 for
# the build, 488 tests; "A gzip bomb streams through in bounded memory" alone about 4). Run it
# before merging a change to the pipeline's threads, the async API or anything Sendable.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
# Leaks inside the toolchain's libraries are suppressed; a leak in TxFold still fails.
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan.supp:print_suppressions=0"
# A data race fails the run (exit 66 from the process that saw it) instead of only printing.
export TSAN_OPTIONS="halt_on_error=1:exitcode=66${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
sanitizers=("$@")
if [ ${#sanitizers[@]} -eq 0 ]; then sanitizers=(address thread); fi
for sanitizer in "${sanitizers[@]}"; do
  echo "== swift test --sanitize=$sanitizer"
  started=$SECONDS
  swift test --sanitize="$sanitizer" --scratch-path ".build-sanitize-$sanitizer"
  echo "== $sanitizer: clean in $((SECONDS - started)) s"
done
