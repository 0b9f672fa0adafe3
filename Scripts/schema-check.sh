#!/usr/bin/env bash
# Every csv and jsonl output of txfold loaded into DuckDB with Documentation/schemas/duckdb.sql
# (the README's read_csv/read_json recipes, explicit types), and its row counts and exact
# totals compared with the json report of the same run (Scripts/schema_check.py): group, list
# and summary, each plain and --per-account, over SampleData, over
# `txfold gen --count 20000 --seed 3 --accounts 150` and over a small dump at the edges. Polars' recipes too when Polars is there.
#
#   Scripts/schema-check.sh                          # the debug txfold
#   TXFOLD=.build/release/txfold Scripts/schema-check.sh
#
# DuckDB comes from pip, into the virtual environment .build-venv (ignored by git, reused on
# later runs). When Python's venv or pip cannot provide it (no network), the check is skipped
# with a note and exit 0, like the other optional steps of .ci/run. Exit 1 on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."

txfold="${TXFOLD:-$(swift build --show-bin-path)/txfold}"
if [ ! -x "$txfold" ]; then
  echo "schema-check: no txfold at $txfold (swift build --product txfold, or set TXFOLD)" >&2
  exit 1
fi

venv="${SCHEMA_CHECK_VENV:-.build-venv}"
if ! "$venv/bin/python" -c 'import duckdb' 2> /dev/null; then
  mkdir -p .build
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q duckdb; } > .build/schema-check-pip.log 2>&1; then
    echo "note: pip could not install duckdb into $venv (see .build/schema-check-pip.log); schema check skipped"
    exit 0
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" Scripts/schema_check.py "$txfold" "$work"
