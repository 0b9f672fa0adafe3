#!/usr/bin/env bash
# compare.sh — times `txfold group` and `txfold summary` side by side with DuckDB on the same
# records in every order a bank's dump comes in (`txfold gen --order day|account|shuffled`), with
# zstd and gzip input beside decompressing alone, and (EXTRAS=1, on the day order) `list`, `text`,
# jq, pigz, igzip, the scan floor and txfold built with the ISAL trait beside ISA-L inflate.
#
# Usage:
#   Benchmarks/compare.sh [WORK_DIR]
#
# What it does, in order:
#   1. builds txfold in release (`swift build -c release`, the root package's own .build/),
#      unless TXFOLD names a binary to use; with EXTRAS=1 and ISA-L's header there or installable
#      (libisal-dev, as root), a second one with the ISAL trait (`--traits ISAL --scratch-path
#      .build-isal-release`), unless TXFOLD_ISAL names one; it compiles Benchmarks/inflate-floor.c
#      (`cc -O2`) against zlib (and ISA-L): the least work a gzip reader can do, inflating to
#      nowhere; and Benchmarks/scan-floor.c with the package's token index: reading, finding
#      lines and indexing them, the part of a run the walk, decoding and fold come after;
#   2. generates the dumps once per order: `txfold gen --count $COUNT --seed $SEED --accounts
#      $ACCOUNTS --order ORDER` — the same records (the same bytes) in each order, so every order
#      gives the same report — and from each a zstd copy (`zstd -3`); from the day order a gzip
#      copy (`gen --gzip`) and, with EXTRAS=1, a slice of its first $JQ_COUNT lines for jq; all
#      in WORK_DIR, reused on later runs;
#   3. installs what is missing: DuckDB into a virtualenv WORK_DIR/venv (`python3 -m venv`,
#      `pip install duckdb`, from PyPI), and GNU time, zstd (and with EXTRAS=1 jq, pigz,
#      libisal-dev, isal) from Debian's packages (`apt-get`, as root only; a tool that cannot be
#      had is left out of the table);
#   4. for each order in $ORDERS, worst first as BENCHMARKS.md quotes them (default `shuffled
#      account day`), runs every command $RUNS times, in rounds (one run of each command per round,
#      so a machine whose load changes affects all of them alike; `sync` before each, untimed),
#      under `/usr/bin/time`. Every txfold row runs with TXFOLD_MAX_KERNEL=avx2 (the AVX2 kernel,
#      which the project's goals are stated for):
#        txfold group --format csv, --format json (members kept), summary --by category --format csv
#        DuckDB: the same group-by, and the summary's        timed twice: the process (Python's
#          start-up and the CSV written included) and, inside the process, the query alone
#          (`time.perf_counter()` around the COPY statement)
#        txfold group --format json on the zstd copy, and `zstd -dc > /dev/null` (decompressing alone)
#        day order: txfold group csv and json on the gzip copy, and the zlib inflate loop (C)
#        day order, EXTRAS=1: list (txfold and DuckDB), text, DuckDB with members, ISA-L build,
#          gzip/pigz/igzip -dc, ISA-L inflate loop, scan floor, jq and txfold on the slice
#   5. prints, per order, a table of median and best wall time, median CPU time (user + system),
#      median peak RSS, DuckDB's in-process query time (median and best) and input MB/s (10^6
#      plain bytes per second of median wall time, so for compressed input the decompressed
#      bytes); then the ratios: txfold against DuckDB's process and against its query alone, zstd
#      json against plain json, gzip against the zlib loop;
#   6. checks that txfold's and DuckDB's counts and totals agree exactly (DuckDB run once more per
#      order, untimed, with `DECIMAL(38,18)`, since the timed query's `DECIMAL(38,2)` rounds the
#      dump's three-decimal amounts), that zstd and gzip give the plain bytes, and that every
#      order gives the same csv and summary bytes; prints OK or MISMATCH (exit status 1 on one).
#
# The DuckDB group-by (read_json with the Backbase schema's columns given explicitly):
#   SELECT upper(state), CAST(CAST(creationTime AS TIMESTAMP) AS DATE) AS date,
#          creditDebitIndicator, transactionAmountCurrency.currencyCode, count(*),
#          sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38,2)))
#   GROUP BY ALL ORDER BY state, date, creditDebitIndicator, currency
# which is txfold's grouping: (state, day, indicator), one total per currency. DuckDB's cast of a
# timestamp with an offset keeps its wall-clock time, so its day is the day as written, txfold's.
# txfold also orders the groups, keeps 20 members per group (json) and validates every record and
# every field, which DuckDB's query does not. `txfold summary --by category --format csv` is timed
# against SELECT category, currencyCode, creditDebitIndicator, count(*), sum(... AS DECIMAL(38,2))
# GROUP BY ALL. (EXTRAS=1: `txfold list --format csv` against DuckDB's sort-and-copy.)
#
# Environment (all optional):
#   WORK=/tmp/txfold-compare  work directory (the first argument wins)
#   COUNT=2000000 SEED=7      the dump
#   ACCOUNTS=200000           accounts in the dump (every order: the same records)
#   ORDERS="shuffled account day"  the orders to run, in the order their tables are printed
#   RUNS=3                    runs of each command
#   EXTRAS=0                  1: the day order's extra rows (list, text, jq, ISA-L, floors)
#   JQ_COUNT=200000           records in jq's slice (EXTRAS=1)
#   TXFOLD=/path/to/txfold    a txfold binary to time instead of building one
#   TXFOLD_ISAL=/path/to/txfold  an ISAL-trait binary to time instead of building one
#   ISAL=0                    leave ISA-L out altogether
#   DUCKDB_VERSION=x.y.z      the duckdb version to pip install (default: the newest)
#
# Idempotent: the dumps, the virtualenv and the installed tools are reused when present; the
# outputs and the tables are made anew on every run. Needs python3, gzip, and Swift unless TXFOLD
# is given; a C compiler (cc) for the inflate floor; zstd (installed when missing) for the zstd rows.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${WORK:-/tmp/txfold-compare}}
count=${COUNT:-2000000}
seed=${SEED:-7}
runs=${RUNS:-3}
jq_count=${JQ_COUNT:-200000}
accounts=${ACCOUNTS:-200000}
orders=${ORDERS:-shuffled account day}
extras=${EXTRAS:-0}

say() { printf '==> %s\n' "$*" >&2; }
die() {
  printf 'compare.sh: %s\n' "$*" >&2
  exit 2
}

[[ $count =~ ^[1-9][0-9]*$ ]] || die "COUNT must be a positive integer, not '$count'"
[[ $seed =~ ^[0-9]+$ ]] || die "SEED must be a non-negative integer, not '$seed'"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
[[ $jq_count =~ ^[1-9][0-9]*$ ]] || die "JQ_COUNT must be a positive integer, not '$jq_count'"
((jq_count <= count)) || jq_count=$count
[[ $accounts =~ ^[0-9]+$ ]] || die "ACCOUNTS must be a non-negative integer, not '$accounts'"
for order in $orders; do
  [[ $order == day || $order == account || $order == shuffled ]] || die "ORDERS: '$order' is not day, account or shuffled"
done
[[ $extras == 0 || $extras == 1 ]] || die "EXTRAS must be 0 or 1, not '$extras'"
# Without the extras there is no ISA-L build to time.
[[ $extras == 1 ]] || ISAL=0
command -v python3 > /dev/null || die "python3 is needed (for DuckDB's virtualenv)"
command -v gzip > /dev/null || die "gzip is needed"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# --- Tools from Debian's packages, installed only when missing -------------------------------

apt_updated=false
# apt_install PACKAGE: installs PACKAGE with apt-get when running as root; fails quietly otherwise.
apt_install() {
  [[ $(id -u) -eq 0 ]] && command -v apt-get > /dev/null || return 1
  if ! $apt_updated; then
    DEBIAN_FRONTEND=noninteractive apt-get update -q > "$work/apt.log" 2>&1 || return 1
    apt_updated=true
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1" >> "$work/apt.log" 2>&1
}

if [[ ! -x /usr/bin/time ]]; then
  say "installing GNU time"
  apt_install time || die "/usr/bin/time (GNU time) is needed: apt-get install time"
fi
have_zstd=true
if ! command -v zstd > /dev/null; then
  say "installing zstd"
  apt_install zstd || {
    say "zstd is not available: the zstd rows are left out"
    have_zstd=false
  }
fi
have_jq=$([[ $extras == 1 ]] && echo true || echo false)
if $have_jq && ! command -v jq > /dev/null; then
  say "installing jq"
  apt_install jq || {
    say "jq is not available: its row is left out"
    have_jq=false
  }
fi
have_pigz=$([[ $extras == 1 ]] && echo true || echo false)
if $have_pigz && ! command -v pigz > /dev/null; then
  say "installing pigz"
  apt_install pigz || {
    say "pigz is not available: its row is left out"
    have_pigz=false
  }
fi
# ISA-L (the ISAL trait's library): its header for the build, igzip for the table.
have_isal=false
if [[ ${ISAL:-1} != 0 ]]; then
  have_isal=true
  if [[ -z ${TXFOLD_ISAL:-} && ! -f /usr/include/isa-l/igzip_lib.h ]]; then
    say "installing libisal-dev"
    apt_install libisal-dev || {
      say "ISA-L is not available: the ISAL trait's rows are left out"
      have_isal=false
    }
  fi
fi
have_igzip=$have_isal
if $have_igzip && ! command -v igzip > /dev/null; then
  say "installing isal (igzip)"
  apt_install isal || {
    say "igzip is not available: its row is left out"
    have_igzip=false
  }
fi

# --- txfold ----------------------------------------------------------------------------------

if [[ -n ${TXFOLD:-} ]]; then
  txfold=$TXFOLD
  [[ -x $txfold ]] || die "TXFOLD=$txfold is not an executable"
else
  say "building txfold (release)"
  (cd "$repo" && swift build -c release --product txfold > "$work/build.log" 2>&1) ||
    die "swift build failed; see $work/build.log"
  txfold="$(cd "$repo" && swift build -c release --show-bin-path)/txfold"
fi

if $have_isal; then
  if [[ -n ${TXFOLD_ISAL:-} ]]; then
    txfold_isal=$TXFOLD_ISAL
    [[ -x $txfold_isal ]] || die "TXFOLD_ISAL=$txfold_isal is not an executable"
  else
    say "building txfold with the ISAL trait (release, .build-isal-release)"
    if (cd "$repo" && swift build -c release --traits ISAL --scratch-path .build-isal-release --product txfold \
      > "$work/build-isal.log" 2>&1); then
      txfold_isal="$(cd "$repo" && swift build -c release --traits ISAL --scratch-path .build-isal-release \
        --show-bin-path)/txfold"
    else
      say "the ISAL build failed (see $work/build-isal.log): its rows are left out"
      have_isal=false
    fi
  fi
fi
if $have_isal; then
  # The binary must say it inflates with ISA-L, or its rows would time zlib twice.
  [[ $("$txfold_isal" --version) == *ISA-L* ]] || die "$txfold_isal does not inflate with ISA-L (txfold --version)"
fi

# --- The inflate floors: Benchmarks/inflate-floor.c ------------------------------------------

have_floor=false
have_isal_floor=false
if command -v cc > /dev/null; then
  if cc -O2 -o "$work/inflate-floor-zlib" "$repo/Benchmarks/inflate-floor.c" -lz 2> "$work/floor.log"; then
    have_floor=true
  else
    say "inflate-floor.c did not compile against zlib (see $work/floor.log): its row is left out"
  fi
  if [[ ${ISAL:-1} != 0 && -f /usr/include/isa-l/igzip_lib.h ]] && cc -O2 -DINFLATE_FLOOR_ISAL -o "$work/inflate-floor-isal" \
    "$repo/Benchmarks/inflate-floor.c" -lisal 2>> "$work/floor.log"; then
    have_isal_floor=true
  fi
else
  say "no C compiler (cc): the inflate floors are left out"
fi

# --- The scan floor: Benchmarks/scan-floor.c -------------------------------------------------

have_scan_floor=false
scan_cc=$(command -v clang || command -v cc || true)
if [[ -n $scan_cc ]] && "$scan_cc" -O2 -I "$repo/Sources/CJSONIndex/include" -o "$work/scan-floor" \
  "$repo/Benchmarks/scan-floor.c" "$repo/Sources/CJSONIndex/json_index.c" 2>> "$work/floor.log"; then
  have_scan_floor=true
else
  say "scan-floor.c did not compile (see $work/floor.log): its rows are left out"
fi

# --- DuckDB in a virtualenv ------------------------------------------------------------------

venv=$work/venv
python=$venv/bin/python
if ! { [[ -x $python ]] && "$python" -c 'import duckdb' 2> /dev/null; }; then
  say "installing DuckDB into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$python" -m pip install -q --disable-pip-version-check "duckdb${DUCKDB_VERSION:+==$DUCKDB_VERSION}" ||
    die "pip install duckdb failed"
fi
duckdb_version=$("$python" -c 'import duckdb; print(duckdb.__version__)')

# --- The dumps: the same records in every order ----------------------------------------------

base=$work/dump-$count-seed$seed-accounts$accounts
# dump ORDER: the plain dump's path, generated (with its zstd copy) when missing.
dump() {
  local plain=$base-$1.jsonl
  if [[ ! -s $plain ]]; then
    say "generating $plain"
    "$txfold" gen --count "$count" --seed "$seed" --accounts "$accounts" --order "$1" -o "$plain.tmp"
    mv "$plain.tmp" "$plain"
  fi
  if $have_zstd && [[ ! -s $plain.zst ]]; then
    say "compressing $plain.zst"
    zstd -q -3 -T0 -f -o "$plain.zst.tmp" "$plain"
    mv "$plain.zst.tmp" "$plain.zst"
  fi
  lines=$(wc -l < "$plain")
  ((lines == count)) || die "$plain has $lines lines, expected $count (delete it to regenerate)"
  echo "$plain"
}
for order in $orders; do dump "$order" > /dev/null; done
day_plain=$base-day.jsonl
gz=$day_plain.gz
slice=$work/slice-$jq_count-of-$count-seed$seed-accounts$accounts.jsonl
if [[ " $orders " == *" day "* ]]; then
  if [[ ! -s $gz ]]; then
    say "generating $gz"
    "$txfold" gen --count "$count" --seed "$seed" --accounts "$accounts" --gzip -o "$gz.tmp"
    # The same records: the gzip dump must inflate to the plain one.
    gzip -dc "$gz.tmp" | cmp -s - "$day_plain" || die "$gz.tmp does not inflate to $day_plain"
    mv "$gz.tmp" "$gz"
  fi
  if [[ $extras == 1 && ! -s $slice ]]; then
    head -n "$jq_count" "$day_plain" > "$slice.tmp"
    mv "$slice.tmp" "$slice"
  fi
fi

# --- DuckDB's side: each query in its own process, timed inside it too -----------------------

# Every script takes the input, the output, the decimal type's scale (2 when timed, 18 for the
# exact check) and a file to which it appends the seconds the query took inside the process.
cat > "$work/duckdb_group.py" << 'EOF'
# DuckDB's side of compare.sh: the `txfold group` grouping as one query, written to a CSV; the
# seconds the query takes inside this process (no start-up, no import) are appended to argv[4].
import sys
import time

import duckdb

source, target, scale, timing = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
con = duckdb.connect()
query = (
    """
    COPY (
      SELECT upper(state) AS state,
             CAST(CAST(creationTime AS TIMESTAMP) AS DATE) AS date,
             creditDebitIndicator,
             transactionAmountCurrency.currencyCode AS currency,
             count(*) AS count,
             sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, %d))) AS amount
      FROM read_json($source, format = 'newline_delimited', columns = {
        'id': 'VARCHAR',
        'description': 'VARCHAR',
        'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)',
        'creditDebitIndicator': 'VARCHAR',
        'creationTime': 'VARCHAR',
        'state': 'VARCHAR'
      })
      GROUP BY ALL
      ORDER BY state, date, creditDebitIndicator, currency
    ) TO '%s' (HEADER, DELIMITER ',')
    """
    % (scale, target.replace("'", "''"))
)
started = time.perf_counter()
con.execute(query, {"source": source})
elapsed = time.perf_counter() - started
with open(timing, "a") as f:
    f.write("%.6f\n" % elapsed)
EOF

cat > "$work/duckdb_summary.py" << 'EOF'
# DuckDB's side of compare.sh for `txfold summary --by category`: count and sums per category,
# currency and indicator, written to a CSV; the query's seconds in-process appended to argv[4].
import sys
import time

import duckdb

source, target, scale, timing = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
con = duckdb.connect()
query = (
    """
    COPY (
      SELECT category,
             transactionAmountCurrency.currencyCode AS currency,
             creditDebitIndicator,
             count(*) AS count,
             sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, %d))) AS amount
      FROM read_json($source, format = 'newline_delimited', columns = {
        'category': 'VARCHAR',
        'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)',
        'creditDebitIndicator': 'VARCHAR'
      })
      GROUP BY ALL
      ORDER BY category, currency, creditDebitIndicator
    ) TO '%s' (HEADER, DELIMITER ',')
    """
    % (scale, target.replace("'", "''"))
)
started = time.perf_counter()
con.execute(query, {"source": source})
elapsed = time.perf_counter() - started
with open(timing, "a") as f:
    f.write("%.6f\n" % elapsed)
EOF

# EXTRAS=1: the same groups with what txfold's default output also holds — each group's latest
# instant and its 20 latest members — and `list`'s sort-and-copy.
cat > "$work/duckdb_group_members.py" << 'EOF'
# DuckDB's side of compare.sh with members: groups, totals per currency, latest, 20 latest members.
import sys
import time

import duckdb

source, target, timing = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
started = time.perf_counter()
con.execute(
    """
    CREATE TEMP TABLE t AS
      SELECT upper(state) AS state, CAST(CAST(creationTime AS TIMESTAMP) AS DATE) AS date,
             creditDebitIndicator AS indicator, transactionAmountCurrency.currencyCode AS currency,
             CAST(transactionAmountCurrency.amount AS DECIMAL(38, 2)) AS amount,
             CAST(creationTime AS TIMESTAMPTZ) AS ts, id, description
      FROM read_json($source, format = 'newline_delimited', columns = {
        'id': 'VARCHAR', 'description': 'VARCHAR',
        'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)',
        'creditDebitIndicator': 'VARCHAR', 'creationTime': 'VARCHAR', 'state': 'VARCHAR'
      })
    """,
    {"source": source},
)
con.execute(
    """
    COPY (
      WITH totals AS (
        SELECT state, date, indicator, list({'currency': currency, 'count': n, 'amount': total} ORDER BY currency)
               AS totals
        FROM (SELECT state, date, indicator, currency, count(*) AS n, sum(amount) AS total FROM t GROUP BY ALL)
        GROUP BY ALL
      ),
      members AS (
        SELECT state, date, indicator, count(*) AS count, max(ts) AS latest,
               max_by({'id': id, 'description': description, 'amount': amount, 'currency': currency}, ts, 20)
               AS transactions
        FROM t GROUP BY ALL
      )
      SELECT * FROM members JOIN totals USING (state, date, indicator)
      ORDER BY state, date DESC, indicator
    ) TO '"""
    + target.replace("'", "''")
    + """' (FORMAT json)
    """
)
with open(timing, "a") as f:
    f.write("%.6f\n" % (time.perf_counter() - started))
EOF

cat > "$work/duckdb_list.py" << 'EOF'
# DuckDB's side of compare.sh for `txfold list --format csv`: every record, sorted newest first
# (by the creationTime text, then the id), copied to a CSV.
import sys
import time

import duckdb

source, target, timing = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
started = time.perf_counter()
con.execute(
    """
    COPY (
      SELECT * FROM read_json($source, format = 'newline_delimited', columns = {
        'id': 'VARCHAR', 'arrangementId': 'VARCHAR', 'creationTime': 'VARCHAR',
        'bookingDate': 'VARCHAR', 'valueDate': 'VARCHAR', 'creditDebitIndicator': 'VARCHAR',
        'description': 'VARCHAR', 'typeGroup': 'VARCHAR', 'type': 'VARCHAR', 'category': 'VARCHAR',
        'billingStatus': 'VARCHAR', 'transactionAmountCurrency': 'JSON', 'reference': 'VARCHAR',
        'counterPartyName': 'VARCHAR'
      })
      ORDER BY creationTime DESC, id
    ) TO '"""
    + target.replace("'", "''")
    + """' (FORMAT csv)
    """,
    {"source": source},
)
with open(timing, "a") as f:
    f.write("%.6f\n" % (time.perf_counter() - started))
EOF

jq_program='group_by([(.state | ascii_upcase), .creationTime[0:10], .creditDebitIndicator,
    .transactionAmountCurrency.currencyCode])
  | map({state: (.[0].state | ascii_upcase), date: .[0].creationTime[0:10],
         creditDebitIndicator: .[0].creditDebitIndicator,
         currency: .[0].transactionAmountCurrency.currencyCode, count: length,
         amount: (map(.transactionAmountCurrency.amount | tonumber) | add)})
  | .[]'

machine_cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
machine_ram=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
# The vector extensions the scanner can use, as the CPU reports them.
machine_flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' |
  grep -xE 'sse2|avx2|bmi1|pclmulqdq|avx512f|avx512bw|avx512_vbmi2' | tr '\n' ' ' | sed 's/ $//')
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
# median FILE COLUMN_EXPRESSION: the median of an awk expression over the lines of FILE.
median() {
  awk "{ print $2 }" "$1" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
minimum() { awk "{ print $2 }" "$1" | sort -g | head -n 1; }
dashes() { printf -- '-%.0s' $(seq "$1"); }

printf '\n'
printf 'txfold compare.sh — %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf 'machine: %s, %s cores, %s RAM\n' "$machine_cpu" "$(nproc)" "$machine_ram"
printf 'CPU flags: %s\n' "$machine_flags"
printf 'txfold %s (%s%s; TXFOLD_MAX_KERNEL=avx2 on every txfold row), DuckDB %s, %s, %s%s\n' \
  "$(git -C "$repo" describe --always --dirty 2> /dev/null || echo '?')" "$txfold" \
  "$($have_isal && printf '; ISAL trait: %s' "$txfold_isal")" "$duckdb_version" \
  "$(gzip --version | head -n 1)" "$(python3 --version)" \
  "$($have_zstd && printf ', zstd %s' "$(zstd --version | grep -o 'v[0-9][0-9.]*' | head -n 1)")"
printf 'dumps: txfold gen --count %s --seed %s --accounts %s --order ORDER: %s bytes plain (%s MiB)\n' \
  "$count" "$seed" "$accounts" "$(stat -L -c %s "$base-$(set -- $orders; echo "$1").jsonl")" \
  "$(mib "$(stat -L -c %s "$base-$(set -- $orders; echo "$1").jsonl")")"
printf '%s runs of each command, in rounds; files in the page cache\n' "$runs"

status=0
check() {
  if "$@"; then return 0; fi
  status=1
}
same_bytes() {
  if cmp -s "$1" "$2"; then
    printf 'OK        %s and %s are byte-identical\n' "${1#"$work"/}" "${2#"$work"/}"
  else
    printf 'MISMATCH  %s and %s differ\n' "${1#"$work"/}" "${2#"$work"/}"
    return 1
  fi
}

# run_order ORDER: every command on that order's dump, in rounds; its table, ratios and checks.
run_order() {
  local order=$1
  local plain=$base-$order.jsonl
  local zst=$plain.zst
  local out=$work/out/$order
  local plain_bytes
  plain_bytes=$(stat -L -c %s "$plain")
  rm -rf "$out"
  mkdir -p "$out"

  # Each command: a label, where its standard output goes, then the command.
  labels=() stdouts=() commands=()
  add() {
    labels+=("$1")
    stdouts+=("$2")
    shift 2
    commands+=("$(printf '%q ' "$@")")
  }
  local tx=(env TXFOLD_MAX_KERNEL=avx2 "$txfold")
  add "txfold group csv" /dev/null "${tx[@]}" group --format csv -o "$out/txfold.csv" "$plain"
  add "txfold group json" /dev/null "${tx[@]}" group --format json -o "$out/txfold.json" "$plain"
  add "DuckDB group-by" /dev/null "$python" "$work/duckdb_group.py" "$plain" "$out/duckdb.csv" 2 "$out/query-duckdb-group"
  add "txfold summary" /dev/null "${tx[@]}" summary --by category --format csv -o "$out/txfold-summary.csv" "$plain"
  add "DuckDB summary" /dev/null "$python" "$work/duckdb_summary.py" "$plain" "$out/duckdb-summary.csv" 2 \
    "$out/query-duckdb-summary"
  if $have_zstd; then
    add "txfold group json, zstd" /dev/null "${tx[@]}" group --format json -o "$out/txfold-zstd.json" "$zst"
    add "zstd -dc (alone)" /dev/null zstd -dc "$zst"
  fi
  if [[ $order == day ]]; then
    add "txfold group csv, gzip" /dev/null "${tx[@]}" group --format csv -o "$out/txfold-gzip.csv" "$gz"
    add "txfold group json, gzip" /dev/null "${tx[@]}" group --format json -o "$out/txfold-gzip.json" "$gz"
    if $have_floor; then add "zlib inflate loop (C)" /dev/null "$work/inflate-floor-zlib" "$gz"; fi
    if [[ $extras == 1 ]]; then
      add "txfold group text" /dev/null "${tx[@]}" group --format text -o "$out/txfold.txt" "$plain"
      add "DuckDB with members" /dev/null "$python" "$work/duckdb_group_members.py" "$plain" \
        "$out/duckdb-members.jsonl" "$out/query-duckdb-members"
      add "txfold list csv" /dev/null "${tx[@]}" list --format csv -o "$out/txfold-list.csv" "$plain"
      add "DuckDB list csv" /dev/null "$python" "$work/duckdb_list.py" "$plain" "$out/duckdb-list.csv" \
        "$out/query-duckdb-list"
      if $have_isal; then
        add "txfold (ISA-L) csv, gzip" /dev/null env TXFOLD_MAX_KERNEL=avx2 "$txfold_isal" group --format csv \
          -o "$out/txfold-isal-gzip.csv" "$gz"
      fi
      add "gzip -dc (alone)" /dev/null gzip -dc "$gz"
      if $have_pigz; then add "pigz -dc (alone)" /dev/null pigz -dc "$gz"; fi
      if $have_igzip; then add "igzip -dc (alone)" /dev/null igzip -dc "$gz"; fi
      if $have_isal_floor; then add "ISA-L inflate loop (C)" /dev/null "$work/inflate-floor-isal" "$gz"; fi
      if $have_scan_floor; then add "scan floor, AVX2 (C)" /dev/null "$work/scan-floor" "$plain" avx2; fi
      add "python + import duckdb" /dev/null "$python" -c 'import duckdb'
      add "txfold group csv, slice" /dev/null "${tx[@]}" group --format csv -o "$out/txfold-slice.csv" "$slice"
      if $have_jq; then add "jq -s group_by, slice" "$out/jq-slice.jsonl" jq -s -c "$jq_program" "$slice"; fi
    fi
  fi

  # Inputs into the page cache first: every command reads from memory.
  cat "$plain" > /dev/null
  if $have_zstd; then cat "$zst" > /dev/null; fi
  if [[ $order == day ]]; then cat "$gz" > /dev/null; fi
  local load_before load_after round i log
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((round = 1; round <= runs; round++)); do
    for i in "${!labels[@]}"; do
      say "$order, round $round/$runs: ${labels[i]}"
      log=$out/run-$i-$round
      # The outputs before it written back first, untimed.
      sync
      if ! eval "/usr/bin/time -f '%e %U %S %M' -o '$log.time' ${commands[i]}" > "${stdouts[i]}" 2> "$log.err"; then
        cat "$log.err" >&2
        die "'${labels[i]}' failed on the $order order (command: ${commands[i]})"
      fi
      # GNU time may add a line of its own; the figures are the last line.
      tail -n 1 "$log.time" >> "$out/times-$i"
    done
  done
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)

  declare -A wall best cpu query
  printf '\n### order: %s (%s bytes, %s MiB; load average %s before, %s after)\n\n' \
    "$order" "$plain_bytes" "$(mib "$plain_bytes")" "$load_before" "$load_after"
  printf '| %-26s | %11s | %9s | %10s | %8s | %20s | %10s |\n' command "median wall" "best wall" "median CPU" \
    "peak RSS" "query in-process" "input MB/s"
  printf '|%s|%s|%s|%s|%s|%s|%s|\n' "$(dashes 28)" "$(dashes 12):" "$(dashes 10):" "$(dashes 11):" "$(dashes 9):" \
    "$(dashes 21):" "$(dashes 11):"
  local times w c rss b q qb bytes rate querytext
  for i in "${!labels[@]}"; do
    times=$out/times-$i
    w=$(median "$times" '$1')
    c=$(median "$times" '$2 + $3')
    rss=$(median "$times" '$4 / 1024')
    b=$(minimum "$times" '$1')
    wall[$i]=$w
    best[$i]=$b
    cpu[$i]=$c
    querytext=""
    case ${labels[i]} in
      "DuckDB group-by") q=$out/query-duckdb-group ;;
      "DuckDB summary") q=$out/query-duckdb-summary ;;
      "DuckDB with members") q=$out/query-duckdb-members ;;
      "DuckDB list csv") q=$out/query-duckdb-list ;;
      *) q="" ;;
    esac
    if [[ -n $q && -s $q ]]; then
      query[$i]=$(median "$q" '$1')
      qb=$(minimum "$q" '$1')
      querytext=$(printf '%.2f s (best %.2f)' "${query[$i]}" "$qb")
    fi
    case ${labels[i]} in
      *slice*) bytes=$(stat -L -c %s "$slice") ;;
      "python + import duckdb") bytes=0 ;;
      *) bytes=$plain_bytes ;;
    esac
    rate=$(awk -v b="$bytes" -v w="$w" 'BEGIN { if (b > 0 && w > 0) printf "%.0f", b / 1e6 / w; else printf "" }')
    printf '| %-26s | %9.2f s | %7.2f s | %8.2f s | %4.0f MiB | %20s | %10s |\n' \
      "${labels[i]}" "$w" "$b" "$c" "$rss" "$querytext" "$rate"
  done

  index_of() {
    local j
    for j in "${!labels[@]}"; do [[ ${labels[j]} == "$1" ]] && echo "$j" && return; done
    echo -1
  }
  # ratio A B TITLE [query]: A's median wall over B's (or over B's in-process query time).
  ratio() {
    local a b y by
    a=$(index_of "$1")
    b=$(index_of "$2")
    ((a >= 0 && b >= 0)) || return 0
    if [[ ${4:-} == query ]]; then
      [[ -n ${query[$b]:-} ]] || return 0
      y=${query[$b]}
      awk -v x="${wall[$a]}" -v y="$y" -v l="$3" 'BEGIN { printf "%-34s %5.2f\n", l, x / y }'
    else
      awk -v x="${wall[$a]}" -v y="${wall[$b]}" -v bx="${best[$a]}" -v by="${best[$b]}" \
        -v cx="${cpu[$a]}" -v cy="${cpu[$b]}" -v l="$3" \
        'BEGIN { printf "%-34s %5.2f   (best wall %5.2f, CPU time %5.2f)\n", l, x / y, bx / by, cx / cy }'
    fi
  }
  printf '\nratios of median wall time (below 1: txfold is faster), order %s\n' "$order"
  ratio "txfold group json" "DuckDB group-by" "json / DuckDB process:"
  ratio "txfold group json" "DuckDB group-by" "json / DuckDB query in-process:" query
  ratio "txfold group csv" "DuckDB group-by" "csv / DuckDB process:"
  ratio "txfold group csv" "DuckDB group-by" "csv / DuckDB query in-process:" query
  ratio "txfold summary" "DuckDB summary" "summary / DuckDB process:"
  ratio "txfold summary" "DuckDB summary" "summary / DuckDB query in-process:" query
  ratio "txfold group json" "txfold group csv" "json / csv:"
  ratio "txfold group json, zstd" "txfold group json" "zstd json / plain json:"
  ratio "txfold group json, zstd" "zstd -dc (alone)" "zstd json / zstd -dc:"
  ratio "txfold group json, gzip" "zlib inflate loop (C)" "gzip json / zlib loop:"
  ratio "txfold group csv, gzip" "zlib inflate loop (C)" "gzip csv / zlib loop:"
  ratio "txfold group text" "DuckDB group-by" "text / DuckDB process:"
  ratio "txfold group json" "DuckDB with members" "json / DuckDB with members:"
  ratio "txfold list csv" "DuckDB list csv" "list / DuckDB list:"
  ratio "txfold (ISA-L) csv, gzip" "zlib inflate loop (C)" "ISA-L gzip csv / zlib loop:"
  ratio "txfold group csv, slice" "jq -s group_by, slice" "txfold / jq, slice:"

  # --- The checks: the same counts and totals, the same bytes -------------------------------
  printf '\n'
  "$python" "$work/duckdb_group.py" "$plain" "$out/duckdb-exact.csv" 18 /dev/null
  "$python" "$work/duckdb_summary.py" "$plain" "$out/duckdb-summary-exact.csv" 18 /dev/null
  if $have_zstd; then check same_bytes "$out/txfold.json" "$out/txfold-zstd.json"; fi
  if [[ $order == day ]]; then
    check same_bytes "$out/txfold.csv" "$out/txfold-gzip.csv"
    check same_bytes "$out/txfold.json" "$out/txfold-gzip.json"
    if [[ -f $out/txfold-isal-gzip.csv ]]; then check same_bytes "$out/txfold.csv" "$out/txfold-isal-gzip.csv"; fi
  fi
  # Every order holds the same records: the same groups and summary, byte for byte.
  if [[ -n ${first_order:-} ]]; then
    check same_bytes "$work/out/$first_order/txfold.csv" "$out/txfold.csv"
    check same_bytes "$work/out/$first_order/txfold-summary.csv" "$out/txfold-summary.csv"
  else
    first_order=$order
  fi
  check "$python" - "$out/txfold.csv" "$out/duckdb-exact.csv" "$count" << 'EOF'
# txfold's CSV has one row per (state, date, indicator, currency) with the *group's* count and
# the currency's (currencyCount); DuckDB's has the count per currency. Compare group counts,
# per-currency counts and per-currency totals exactly.
import csv
import sys
from decimal import Decimal

txfold_path, duckdb_path, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
txfold_counts, txfold_totals, txfold_currency_counts = {}, {}, {}
with open(txfold_path, newline="") as f:
    for row in csv.DictReader(f):
        group = (row["state"], row["date"], row["creditDebitIndicator"])
        if txfold_counts.setdefault(group, int(row["count"])) != int(row["count"]):
            sys.exit(f"MISMATCH  txfold's rows of group {group} disagree on its count")
        txfold_totals[group + (row["currency"],)] = Decimal(row["amount"])
        txfold_currency_counts[group + (row["currency"],)] = int(row["currencyCount"])
duckdb_counts, duckdb_totals, duckdb_currency_counts = {}, {}, {}
with open(duckdb_path, newline="") as f:
    for row in csv.DictReader(f):
        group = (row["state"], row["date"], row["creditDebitIndicator"])
        duckdb_counts[group] = duckdb_counts.get(group, 0) + int(row["count"])
        duckdb_totals[group + (row["currency"],)] = Decimal(row["amount"])
        duckdb_currency_counts[group + (row["currency"],)] = int(row["count"])

problems = []
for name, ours, theirs in (
    ("count", txfold_counts, duckdb_counts),
    ("currency count", txfold_currency_counts, duckdb_currency_counts),
    ("total", txfold_totals, duckdb_totals),
):
    for key in sorted(set(ours) | set(theirs)):
        if ours.get(key) != theirs.get(key):
            problems.append(f"  {name} of {key}: txfold {ours.get(key)}, DuckDB {theirs.get(key)}")
records = sum(txfold_counts.values())
if records != expected:
    problems.append(f"  txfold counted {records} records, the dump has {expected}")
if problems:
    print(f"MISMATCH  txfold and DuckDB disagree in {len(problems)} places:")
    print("\n".join(problems[:20]))
    sys.exit(1)
print(
    f"OK        txfold and DuckDB agree: {len(txfold_counts)} groups, {len(txfold_totals)} currency totals,"
    f" {records} records, every count and total exact"
)
EOF
  check "$python" - "$out/txfold-summary.csv" "$out/duckdb-summary-exact.csv" "$count" << 'EOF'
# txfold's summary CSV: per (key, currency) the count, income and expense. DuckDB's: per
# (category, currency, indicator) the count and the sum of the written magnitudes. A missing or
# empty category is txfold's `(none)` and DuckDB's empty cell.
import csv
import sys
from decimal import Decimal

txfold_path, duckdb_path, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
ours, theirs = {}, {}
with open(txfold_path, newline="") as f:
    for row in csv.DictReader(f):
        ours[(row["key"], row["currency"])] = (int(row["count"]), Decimal(row["income"]), Decimal(row["expense"]))
with open(duckdb_path, newline="") as f:
    for row in csv.DictReader(f):
        key = (row["category"] or "(none)", row["currency"])
        count, income, expense = theirs.get(key, (0, Decimal(0), Decimal(0)))
        amount = Decimal(row["amount"])
        if row["creditDebitIndicator"] == "DBIT":
            expense -= amount
        else:
            income += amount
        theirs[key] = (count + int(row["count"]), income, expense)
problems = [
    f"  {key}: txfold {ours.get(key)}, DuckDB {theirs.get(key)}"
    for key in sorted(set(ours) | set(theirs))
    if ours.get(key) != theirs.get(key)
]
records = sum(count for count, _, _ in ours.values())
if records != expected:
    problems.append(f"  txfold's summary counted {records} records, the dump has {expected}")
if problems:
    print(f"MISMATCH  txfold's summary and DuckDB disagree in {len(problems)} places:")
    print("\n".join(problems[:20]))
    sys.exit(1)
print(f"OK        txfold's summary and DuckDB agree: {len(ours)} category totals, {records} records, exact")
EOF
}

first_order=""
for order in $orders; do run_order "$order"; done
printf '\noutputs and logs: %s/out\n' "$work"
exit "$status"
