#!/usr/bin/env bash
# Runs the Spark example in local mode (local[2]) and checks that every report it
# writes equals one local `txfold group` run over the same dump, byte for byte:
# whole reports (cases 1-3) and per-account reports (cases 4-5, `--per-account`).
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

# A bank's multi-account dump, plus lines txfold rejects and counts: two records without an
# arrangementId (absent, null) and a malformed line. The job routes them to any partition.
"$txfold" gen --count 5000 --seed 3 --accounts 120 -o "$work/accounts.jsonl"
cat >> "$work/accounts.jsonl" <<'LINES'
{"id":"no-account-1","transactionAmountCurrency":{"amount":"12.50","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2024-03-01T10:00:00","state":"COMPLETED"}
{"id":"no-account-2","arrangementId":null,"transactionAmountCurrency":{"amount":"7.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2024-03-02T10:00:00","state":"COMPLETED"}
{"arrangementId":"A0000000007","id":"broken",
LINES
"$txfold" group --quiet --per-account --format jsonl --stats "$work/expected-accounts.stats.json" \
  "$work/accounts.jsonl" > "$work/expected-accounts.jsonl"

per_account_failures=$failures
echo "4. Per account: repartitioned by account into 4 partitions, a per-account partial each, merge --per-account, jsonl:"
mkdir "$work/account-partials"
spark "$work/accounts.jsonl" --per-account --partitions 4 --format jsonl -o "$work/spark-accounts.jsonl" \
  --save-partials "$work/account-partials"
check "spark per-account jsonl report (merge route)" "$work/expected-accounts.jsonl" "$work/spark-accounts.jsonl"
for format in json csv text; do
  "$txfold" group --quiet --per-account --format "$format" "$work/accounts.jsonl" > "$work/expected-accounts.$format"
  "$txfold" merge --quiet --per-account --format "$format" "$work/account-partials"/*.apartial > "$work/merged-accounts.$format"
  check "the per-account partials merged as $format" "$work/expected-accounts.$format" "$work/merged-accounts.$format"
done
# Each account in exactly one partition: the partials' account counts add up to the report's.
partial_accounts=0
for partial in "$work/account-partials"/*.apartial; do
  count="$(tail -n 1 "$partial" | sed -n 's/^{"stats":{"accounts":\([0-9]*\),.*/\1/p')"
  partial_accounts=$((partial_accounts + ${count:-0}))
done
# The report's jsonl holds only its account lines; its --stats document counts them.
report_accounts="$(grep -o '"accounts":[0-9]*' "$work/expected-accounts.stats.json" | tail -n 1 | cut -d: -f2)"
if [ "$(wc -l < "$work/expected-accounts.jsonl")" -ne "${report_accounts:-0}" ] ||
  grep -q '^{"stats"' "$work/expected-accounts.jsonl"; then
  echo "FAIL: the per-account jsonl is not one line per account (${report_accounts:-?} accounts)"
  failures=$((failures + 1))
fi
partial_count="$(ls "$work/account-partials" | wc -l)"
if [ "$partial_count" -eq 4 ] && [ "$partial_accounts" -eq "${report_accounts:-0}" ] && [ "$partial_accounts" -eq 120 ]; then
  echo "ok: $partial_count partitions hold $partial_accounts accounts, each in one partition"
else
  echo "FAIL: $partial_count partials hold $partial_accounts accounts, the report ${report_accounts:-?}: an account was split"
  failures=$((failures + 1))
fi

echo "5. Per account, direct: each partition writes jsonl, the job orders the accounts and adds up the --stats counts:"
spark "$work/accounts.jsonl" --per-account --per-account-route direct --partitions 4 --format jsonl \
  -o "$work/spark-accounts-direct.jsonl"
check "spark per-account jsonl report (direct route)" "$work/expected-accounts.jsonl" "$work/spark-accounts-direct.jsonl"
if [ "$failures" -eq "$per_account_failures" ]; then
  echo "Spark per-account example: the merged per-account reports equal a single txfold group --per-account run, byte for byte."
fi

if [ "$failures" -ne 0 ]; then
  echo "Spark example: $failures check(s) failed."
  exit 1
fi
echo "Spark example: every report equals a single txfold group run, byte for byte."
