#!/usr/bin/env bash
# The manual page, Documentation/man/txfold.1, generated from the argument parser (the
# swift-argument-parser's GenerateManual plugin: every command, option, value and help text).
#
#   Scripts/man.sh           # regenerate Documentation/man/txfold.1
#   Scripts/man.sh --check   # fail (exit 1, with the diff) when the committed page is not current
#
# The plugin writes mdoc; the script then keeps each help's "Examples:" lines as they are (a
# literal display instead of filled text) and turns blank lines into paragraph requests (`groff -mdoc
# -ww` warns of none). The page's date is MAN_DATE (below): raise it with a
# release, not on every run, so the page is the same bytes on every machine. .ci/run runs --check.
set -euo pipefail
cd "$(dirname "$0")/.."

MAN_DATE=${MAN_DATE:-2026-11-25}
page=Documentation/man/txfold.1

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! swift package plugin generate-manual --configuration debug --date "$MAN_DATE" > "$work/plugin.log" 2>&1; then
  cat "$work/plugin.log" >&2
  exit 1
fi
generated=.build/plugins/GenerateManual/outputs/TxFoldCLI/txfold.1
# "Examples:" then indented lines: a literal display, ended before the next request or blank line.
awk '
  in_examples && /^  / { print; next }
  in_examples { print ".Ed"; in_examples = 0 }
  /^Examples:$/ { print; print ".Bd -literal -offset indent"; in_examples = 1; next }
  # A blank line between paragraphs of a help text: mdoc wants a paragraph request instead.
  /^$/ { print ".Pp"; next }
  { print }
  END { if (in_examples) print ".Ed" }
' "$generated" | sed 's/^  //' > "$work/txfold.1"

if [ "${1:-}" = "--check" ]; then
  if ! diff -u "$page" "$work/txfold.1"; then
    echo "man: $page is not current; run Scripts/man.sh and commit it" >&2
    exit 1
  fi
  echo "man: $page is current"
else
  mkdir -p "$(dirname "$page")"
  cp "$work/txfold.1" "$page"
  echo "man: wrote $page"
fi
