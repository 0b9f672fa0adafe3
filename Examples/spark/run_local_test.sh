#!/usr/bin/env bash
# Runs the Spark example in local mode (local[2]) and checks that every report it
# writes — whole and per account — equals one local `txfold group` run over the same
# dump, byte for byte.
#
# Needs Python 3 with venv, Java 17, and PyPI on the first run (pip install pyspark
# into a virtual environment next to this script, or $TXFOLD_SPARK_VENV).
# $TXFOLD names the binary to test; without it the release binary is built.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

txfold="${TXFOLD:-}"
if [ -z "$txfold" ]; then
  (cd "$root" && swift build -c release --product txfold >&2)
  txfold="$root/.build/release/txfold"
fi

venv="${TXFOLD_SPARK_VENV:-$here/.venv}"
if ! "$venv/bin/python" -c "import pyspark" 2>/dev/null; then
  echo "Installing PySpark into $venv …" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
fi
export PYSPARK_PYTHON="$venv/bin/python"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A dump with lines every run must account for: a malformed record, a non-object, a blank line.
"$txfold" gen --count 20000 --seed 7 -o "$work/dump.jsonl"
printf '{"id":"broken",\n[1,2]\n\n' >> "$work/dump.jsonl"
mkdir "$work/shards"
split -n l/4 -d --additional-suffix=.jsonl "$work/dump.jsonl" "$work/shards/part-"
gzip "$work/shards/part-01.jsonl" "$work/shards/part-03.jsonl"

spark() {
  "$venv/bin/python" "$here/txfold_spark.py" --txfold "$txfold" --master 'local[2]' "$@"
}

failures=0
check() {  # name expected actual
  if cmp -s "$2" "$3"; then
    echo "ok: $1"
  else
    echo "FAIL: $1 differs from a single txfold group run:"
    diff "$2" "$3" | head -20 || true
    failures=$((failures + 1))
  fi
}

echo "1. A directory of shards (.jsonl and .jsonl.gz), one partition per file, json:"
"$txfold" group --quiet --format json "$work/dump.jsonl" > "$work/expected.json"
spark "$work/shards" --format json -o "$work/spark.json" --save-partials "$work/partials.jsonl"
check "spark json report" "$work/expected.json" "$work/spark.json"
for format in text jsonl csv; do
  "$txfold" group --quiet --format "$format" "$work/dump.jsonl" > "$work/expected.$format"
  "$txfold" merge --quiet --format "$format" "$work/partials.jsonl" > "$work/merged.$format"
  check "the collected partials as $format" "$work/expected.$format" "$work/merged.$format"
done

echo "2. One big file split into 6 partitions, text, --members 5 --timezone Europe/Amsterdam:"
"$txfold" group --quiet --members 5 --timezone Europe/Amsterdam "$work/dump.jsonl" > "$work/expected-zoned.text"
spark "$work/dump.jsonl" --partitions 6 --members 5 --timezone Europe/Amsterdam -o "$work/spark-zoned.text"
check "spark text report" "$work/expected-zoned.text" "$work/spark-zoned.text"

echo "3. Whole files handed to the tasks, csv:"
spark "$work/shards" --whole-files --format csv -o "$work/spark.csv"
check "spark csv report (whole files)" "$work/expected.csv" "$work/spark.csv"

echo "4. Per account: a multi-account dump repartitioned by account over 4 partitions, jsonl and text:"
"$txfold" gen --count 5000 --seed 3 --accounts 120 -o "$work/accounts.jsonl"
# A record without an account and a malformed line: rejected in whichever partition they land.
printf '{"id":"no-account","creationTime":"2024-05-01T10:00:00","state":"COMPLETED","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"}}\n{"broken\n' >> "$work/accounts.jsonl"
for format in jsonl text; do
  "$txfold" group --quiet --per-account --format "$format" "$work/accounts.jsonl" > "$work/expected-accounts.$format"
  spark "$work/accounts.jsonl" --per-account --partitions 4 --format "$format" -o "$work/spark-accounts.$format"
  check "spark per-account $format report" "$work/expected-accounts.$format" "$work/spark-accounts.$format"
done

if [ "$failures" -ne 0 ]; then
  echo "Spark example: $failures check(s) failed."
  exit 1
fi
echo "Spark example: every report equals a single txfold group run, byte for byte."
