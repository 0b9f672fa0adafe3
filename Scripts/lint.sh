#!/usr/bin/env bash
# Checks formatting and the no-force-unwrap / no-force-try rules of .swift-format, and that no
# file points to a specification outside the repository: Documentation/Formats.md, Guide.md and
# Decisions.md are the project's own contract (CHANGELOG.md keeps its history as written).
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive Sources Tests Package.swift Examples/app-client/Sources Examples/app-client/Package.swift

pattern='SPEC'' §'
if outside=$(grep -rnI --exclude-dir=.build --exclude-dir=.build-isal --exclude-dir=.git --exclude-dir=.swiftpm \
  --exclude=CHANGELOG.md -e "$pattern" .); then
  echo "lint: comments point outside the repository; point to Documentation/ instead:"
  echo "$outside"
  exit 1
fi

# A merge's conflict markers, committed by mistake, in any tracked file.
if markers=$(git grep -nI -E '^(<<<<<<< |>>>>>>> |=======$)' -- . ':!Tests/Snapshots' ':!Tests/Fixtures' 2>/dev/null); then
  echo "lint: conflict markers left by a merge:"
  echo "$markers"
  exit 1
fi
