#!/usr/bin/env bash
# compare.sh — times `txfold group` side by side with DuckDB, zlib inflate and jq on one dump,
# and, where Intel ISA-L can be had, txfold built with the ISAL trait beside ISA-L inflate.
#
# Usage:
#   Benchmarks/compare.sh [WORK_DIR]
#
# What it does, in order:
#   1. builds txfold in release (`swift build -c release`, the root package's own .build/),
#      unless TXFOLD names a binary to use; and, when ISA-L's header is there or can be installed
#      (libisal-dev, as root), a second one with the ISAL trait (`swift build -c release --traits
#      ISAL --scratch-path .build-isal-release`), unless TXFOLD_ISAL names one; it also compiles
#      Benchmarks/inflate-floor.c (`cc -O2`) against zlib and, with ISA-L, against ISA-L: the
#      least work a gzip reader can do, inflating to nowhere; and Benchmarks/scan-floor.c with
#      the package's token index (clang, as the package's C is built; cc without one): reading,
#      finding lines and indexing them, the part of a run the walk, decoding and fold come after;
#   2. generates the dump once: `txfold gen --count $COUNT --seed $SEED`, plain and `--gzip`,
#      into WORK_DIR (reused on later runs; regenerated if COUNT or SEED change), and a slice of
#      its first $JQ_COUNT lines for jq;
#   3. installs what is missing: DuckDB into a virtualenv WORK_DIR/venv (`python3 -m venv`,
#      `pip install duckdb`, from PyPI), and jq, pigz, GNU time, libisal-dev and isal (igzip)
#      from Debian's packages (`apt-get`, as root only; a tool that cannot be had is left out of
#      the table, and without ISA-L the ISA-L rows are);
#   4. runs every command $RUNS times, in rounds (one run of each command per round, so a
#      machine whose load changes affects all of them alike; `sync` before each, untimed, so no
#      command pays for writing back the outputs of the one before), under `/usr/bin/time`:
#        txfold group --format csv -o OUT.csv      on the plain and on the gzip dump
#        DuckDB: the same query, to a CSV          on the plain and on the gzip dump
#        DuckDB with members: the groups' latest and 20 latest members too (max_by), JSON
#        txfold group --format json and text       (the default output keeps members)
#        the csv, json, summary and list rows with TXFOLD_MAX_KERNEL=avx2, on a CPU with AVX-512
#        (the AVX2 path)
#        txfold (ISAL trait) group                 on the gzip dump
#        gzip -dc, pigz -dc, igzip -dc > /dev/null  (inflating alone, with writing)
#        inflate-floor (zlib), inflate-floor (ISA-L)  (inflating alone to nowhere: the floor)
#        scan-floor, best kernel and AVX2          (reading, lines and the token index, one thread)
#        jq -s 'group_by(...)' and txfold group    on the slice
#        python -c 'import duckdb'                 (DuckDB's start-up cost, included in its rows)
#   5. prints a table of median and best wall time, median CPU time (user + system), median
#      peak RSS and input MB/s (10^6 plain bytes per second of median wall time, so for gzip
#      input the decompressed bytes), then the ratios txfold/DuckDB (plain and gzip),
#      txfold-gzip/inflate-alone, and the ISA-L build against zlib's and against its own floor;
#      then, for each ratio goal of `group` and `summary`, the CPU time it leaves (DuckDB's median
#      wall × the goal × the cores), the scan floor's share of it and txfold's own CPU time;
#   6. checks that txfold's and DuckDB's counts and totals agree exactly, and that every txfold
#      build gives the same bytes on plain and gzip input, and prints OK or MISMATCH (exit status
#      1 on a mismatch).
#
# The DuckDB query (read_json with the Backbase schema's columns given explicitly):
#   SELECT upper(state), substr(creationTime, 1, 10) AS date, creditDebitIndicator,
#          transactionAmountCurrency.currencyCode, count(*),
#          sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38,18)))   -- exact
#   GROUP BY ALL ORDER BY state, date, creditDebitIndicator, currency
# which is txfold's grouping: (state, day as written, indicator), one exact total per currency.
# txfold also orders the groups, keeps 20 members per group and validates every record and
# every field, which DuckDB's query does not; neither writes more than the grouped CSV.
# jq's sums are doubles (`tonumber`), so jq's totals are not exact; it is timed, not checked.
# `txfold summary --by category --format csv` is timed against
#   SELECT category, currencyCode, creditDebitIndicator, count(*), sum(... AS DECIMAL(38,18))
#   GROUP BY ALL
# and checked against it (income = the CRDT sums, expense = minus the DBIT sums, per category
# and currency).
# `txfold list --format csv` (every transaction, newest first) is timed against DuckDB's
# sort-and-copy of the same records:
#   COPY (SELECT * FROM read_json(...) ORDER BY creationTime DESC, id) TO csv
# The two CSVs cannot be compared byte for byte: their columns differ (txfold writes its list
# columns, with the instant as written, the day, signed amounts and totals; DuckDB the input's
# columns), and DuckDB's ORDER BY sorts the creationTime *text*, so times written with different
# offsets (`…-05:00`, `…Z`, none) come in text order, not in time order. The check instead reads
# both: the same ids, each once, as many as the dump has records; and txfold's rows in
# TransactionOrder (the instant, parsed with its offset, later first; then the id) throughout.
#
# Environment (all optional):
#   WORK=/tmp/txfold-compare  work directory (the first argument wins)
#   COUNT=2000000 SEED=7      the dump
#   RUNS=3                    runs of each command
#   JQ_COUNT=200000           records in jq's slice
#   TXFOLD=/path/to/txfold    a txfold binary to time instead of building one
#   TXFOLD_ISAL=/path/to/txfold  an ISAL-trait binary to time instead of building one
#   ISAL=0                    leave ISA-L out altogether
#   DUCKDB_VERSION=x.y.z      the duckdb version to pip install (default: the newest)
#
# Idempotent: the dump, the slice, the virtualenv and the installed tools are reused when
# present; the outputs and the table are made anew on every run. Needs python3, gzip, and
# Swift unless TXFOLD is given; a C compiler (cc) for the inflate floors.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${WORK:-/tmp/txfold-compare}}
count=${COUNT:-2000000}
seed=${SEED:-7}
runs=${RUNS:-3}
jq_count=${JQ_COUNT:-200000}

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
have_jq=true
if ! command -v jq > /dev/null; then
  say "installing jq"
  apt_install jq || {
    say "jq is not available: its row is left out"
    have_jq=false
  }
fi
have_pigz=true
if ! command -v pigz > /dev/null; then
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

# --- The dump --------------------------------------------------------------------------------

plain=$work/dump-$count-seed$seed.jsonl
gz=$plain.gz
slice=$work/slice-$jq_count-of-$count-seed$seed.jsonl

if [[ ! -s $plain ]]; then
  say "generating $plain"
  "$txfold" gen --count "$count" --seed "$seed" -o "$plain.tmp"
  mv "$plain.tmp" "$plain"
fi
if [[ ! -s $gz ]]; then
  say "generating $gz"
  "$txfold" gen --count "$count" --seed "$seed" --gzip -o "$gz.tmp"
  # The same records: the gzip dump must inflate to the plain one.
  gzip -dc "$gz.tmp" | cmp -s - "$plain" || die "$gz.tmp does not inflate to $plain"
  mv "$gz.tmp" "$gz"
fi
if [[ ! -s $slice ]]; then
  head -n "$jq_count" "$plain" > "$slice.tmp"
  mv "$slice.tmp" "$slice"
fi
lines=$(wc -l < "$plain")
((lines == count)) || die "$plain has $lines lines, expected $count (delete it to regenerate)"
plain_bytes=$(stat -L -c %s "$plain")
gz_bytes=$(stat -L -c %s "$gz")
slice_bytes=$(stat -L -c %s "$slice")

# --- The commands ----------------------------------------------------------------------------

out=$work/out
rm -rf "$out"
mkdir -p "$out"

cat > "$work/duckdb_group.py" << 'EOF'
# DuckDB's side of compare.sh: the `txfold group` grouping as one query, written to a CSV.
import sys

import duckdb

source, target = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute(
    """
    COPY (
      SELECT upper(state) AS state,
             substr(creationTime, 1, 10) AS date,
             creditDebitIndicator,
             transactionAmountCurrency.currencyCode AS currency,
             count(*) AS count,
             sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, 18))) AS amount
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
    ) TO '""" + target.replace("'", "''") + """' (HEADER, DELIMITER ',')
    """,
    {"source": source},
)
EOF

# The second baseline: the same groups with what txfold's default output also holds — each
# group's latest instant and its 20 latest members (`max_by(…, 20)`) — joined with the
# per-currency totals, written as JSON lines.
cat > "$work/duckdb_group_members.py" << 'EOF'
# DuckDB's side of compare.sh with members: groups, totals per currency, latest, 20 latest members.
import sys

import duckdb

source, target = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute(
    """
    CREATE TEMP TABLE t AS
      SELECT upper(state) AS state, substr(creationTime, 1, 10) AS date, creditDebitIndicator AS indicator,
             transactionAmountCurrency.currencyCode AS currency,
             CAST(transactionAmountCurrency.amount AS DECIMAL(38, 18)) AS amount,
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
    ) TO '""" + target.replace("'", "''") + """' (FORMAT json)
    """
)
EOF

# `txfold summary --by category`'s work as one query: count and exact sums per category,
# currency and indicator (the indicator gives income or expense; txfold's CSV has both per row).
cat > "$work/duckdb_summary.py" << 'EOF'
# DuckDB's side of compare.sh for `txfold summary --by category`: count and exact sums per
# category, currency and indicator, written to a CSV.
import sys

import duckdb

source, target = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute(
    """
    COPY (
      SELECT category,
             transactionAmountCurrency.currencyCode AS currency,
             creditDebitIndicator,
             count(*) AS count,
             sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, 18))) AS amount
      FROM read_json($source, format = 'newline_delimited', columns = {
        'category': 'VARCHAR',
        'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)',
        'creditDebitIndicator': 'VARCHAR'
      })
      GROUP BY ALL
      ORDER BY category, currency, creditDebitIndicator
    ) TO '""" + target.replace("'", "''") + """' (HEADER, DELIMITER ',')
    """,
    {"source": source},
)
EOF

# `txfold list --format csv`'s work as one query: every record, newest first, to a CSV.
cat > "$work/duckdb_list.py" << 'EOF'
# DuckDB's side of compare.sh for `txfold list --format csv`: every record, sorted newest first
# (by the creationTime text, then the id), copied to a CSV.
import sys

import duckdb

source, target = sys.argv[1], sys.argv[2]
con = duckdb.connect()
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
    ) TO '""" + target.replace("'", "''") + """' (FORMAT csv)
    """,
    {"source": source},
)
EOF

jq_program='group_by([(.state | ascii_upcase), .creationTime[0:10], .creditDebitIndicator,
    .transactionAmountCurrency.currencyCode])
  | map({state: (.[0].state | ascii_upcase), date: .[0].creationTime[0:10],
         creditDebitIndicator: .[0].creditDebitIndicator,
         currency: .[0].transactionAmountCurrency.currencyCode, count: length,
         amount: (map(.transactionAmountCurrency.amount | tonumber) | add)})
  | .[]'

# Each command: a label, where its standard output goes, then the command.
labels=() stdouts=() commands=()
add() {
  labels+=("$1")
  stdouts+=("$2")
  shift 2
  commands+=("$(printf '%q ' "$@")")
}
add "txfold group, plain" /dev/null "$txfold" group --format csv -o "$out/txfold-plain.csv" "$plain"
add "DuckDB, plain" /dev/null "$python" "$work/duckdb_group.py" "$plain" "$out/duckdb-plain.csv"
add "DuckDB with members, plain" /dev/null "$python" "$work/duckdb_group_members.py" "$plain" \
  "$out/duckdb-members.jsonl"
add "txfold summary, plain" /dev/null "$txfold" summary --by category --format csv -o "$out/txfold-summary.csv" \
  "$plain"
add "DuckDB summary, plain" /dev/null "$python" "$work/duckdb_summary.py" "$plain" "$out/duckdb-summary.csv"
add "txfold list, csv" /dev/null "$txfold" list --format csv -o "$out/txfold-list.csv" "$plain"
add "DuckDB list, csv" /dev/null "$python" "$work/duckdb_list.py" "$plain" "$out/duckdb-list.csv"
add "txfold group json, plain" /dev/null "$txfold" group --format json -o "$out/txfold-plain.json" "$plain"
add "txfold group text, plain" /dev/null "$txfold" group --format text -o "$out/txfold-plain.txt" "$plain"
# The AVX2 path on a wider CPU: TXFOLD_MAX_KERNEL caps the scanner's kernel.
if grep -qw avx512bw /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo; then
  add "txfold csv, AVX2 kernel" /dev/null env TXFOLD_MAX_KERNEL=avx2 "$txfold" group --format csv \
    -o "$out/txfold-plain-avx2.csv" "$plain"
  add "txfold json, AVX2 kernel" /dev/null env TXFOLD_MAX_KERNEL=avx2 "$txfold" group --format json \
    -o "$out/txfold-plain-avx2.json" "$plain"
  add "txfold summary, AVX2 kernel" /dev/null env TXFOLD_MAX_KERNEL=avx2 "$txfold" summary --by category \
    --format csv -o "$out/txfold-summary-avx2.csv" "$plain"
  add "txfold list, AVX2 kernel" /dev/null env TXFOLD_MAX_KERNEL=avx2 "$txfold" list --format csv \
    -o "$out/txfold-list-avx2.csv" "$plain"
fi
add "txfold group, gzip" /dev/null "$txfold" group --format csv -o "$out/txfold-gzip.csv" "$gz"
add "DuckDB, gzip" /dev/null "$python" "$work/duckdb_group.py" "$gz" "$out/duckdb-gzip.csv"
if $have_isal; then
  add "txfold (ISA-L) group, gzip" /dev/null "$txfold_isal" group --format csv -o "$out/txfold-isal-gzip.csv" "$gz"
fi
add "gzip -dc (inflate alone)" /dev/null gzip -dc "$gz"
if $have_pigz; then add "pigz -dc (inflate alone)" /dev/null pigz -dc "$gz"; fi
if $have_igzip; then add "igzip -dc (inflate alone)" /dev/null igzip -dc "$gz"; fi
if $have_floor; then add "zlib inflate loop (C)" /dev/null "$work/inflate-floor-zlib" "$gz"; fi
if $have_isal_floor; then add "ISA-L inflate loop (C)" /dev/null "$work/inflate-floor-isal" "$gz"; fi
if $have_scan_floor; then
  add "scan floor (C)" /dev/null "$work/scan-floor" "$plain"
  if grep -qw avx512bw /proc/cpuinfo; then add "scan floor, AVX2 (C)" /dev/null "$work/scan-floor" "$plain" avx2; fi
fi
add "python + import duckdb" /dev/null "$python" -c 'import duckdb'
add "txfold group, slice" /dev/null "$txfold" group --format csv -o "$out/txfold-slice.csv" "$slice"
if $have_jq; then add "jq -s group_by, slice" "$out/jq-slice.jsonl" jq -s -c "$jq_program" "$slice"; fi

# Inputs into the page cache first: every command reads from memory.
cat "$plain" "$gz" "$slice" > /dev/null

machine_cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
machine_ram=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
# The vector extensions the scanner can use, as the CPU reports them.
machine_flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' |
  grep -xE 'sse2|avx2|bmi1|pclmulqdq|avx512f|avx512bw|avx512_vbmi2' | tr '\n' ' ' | sed 's/ $//')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

for ((round = 1; round <= runs; round++)); do
  for i in "${!labels[@]}"; do
    say "round $round/$runs: ${labels[i]}"
    log=$out/run-$i-$round
    # The outputs before it written back first, untimed: `list` writes about a gigabyte, whose
    # writeback otherwise runs during the next commands and slowed them by a quarter.
    sync
    if ! eval "/usr/bin/time -f '%e %U %S %M' -o '$log.time' ${commands[i]}" > "${stdouts[i]}" 2> "$log.err"; then
      cat "$log.err" >&2
      die "'${labels[i]}' failed (command: ${commands[i]})"
    fi
    # GNU time may add a line of its own; the figures are the last line.
    tail -n 1 "$log.time" >> "$out/times-$i"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# median FILE COLUMN_EXPRESSION: the median of an awk expression over the lines of FILE.
median() {
  awk "{ print $2 }" "$1" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
minimum() { awk "{ print $2 }" "$1" | sort -g | head -n 1; }

declare -A wall best cpu
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

printf '\n'
printf 'txfold compare.sh — %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf 'machine: %s, %s cores, %s RAM; load average %s before, %s after\n' \
  "$machine_cpu" "$(nproc)" "$machine_ram" "$load_before" "$load_after"
printf 'CPU flags: %s\n' "$machine_flags"
printf 'txfold %s (%s%s), DuckDB %s, %s, %s%s%s%s\n' \
  "$(git -C "$repo" describe --always --dirty 2> /dev/null || echo '?')" "$txfold" \
  "$($have_isal && printf '; ISAL trait: %s' "$txfold_isal")" "$duckdb_version" \
  "$(gzip --version | head -n 1)" "$(python3 --version)" \
  "$($have_pigz && printf ', pigz %s' "$(pigz --version 2>&1 | awk '{ print $2 }')")" \
  "$($have_igzip && printf ', igzip %s' "$(igzip --version 2>&1 | awk 'NR == 1 { print $NF }')")" \
  "$($have_jq && printf ', %s' "$(jq --version)")"
printf 'dump: txfold gen --count %s --seed %s: %s bytes plain (%s MiB), %s bytes gzip (%s MiB);' \
  "$count" "$seed" "$plain_bytes" "$(mib "$plain_bytes")" "$gz_bytes" "$(mib "$gz_bytes")"
printf ' slice: first %s lines, %s MiB\n' "$jq_count" "$(mib "$slice_bytes")"
printf '%s runs of each command, in rounds; files in the page cache\n\n' "$runs"

printf '| %-26s | %12s | %10s | %12s | %13s | %14s |\n' command "median wall" "best wall" "median CPU" "peak RSS" "input MB/s"
dashes() { printf -- '-%.0s' $(seq "$1"); }
printf '|%s|%s|%s|%s|%s|%s|\n' "$(dashes 28)" "$(dashes 13):" "$(dashes 11):" "$(dashes 13):" "$(dashes 14):" \
  "$(dashes 15):"
for i in "${!labels[@]}"; do
  times=$out/times-$i
  w=$(median "$times" '$1')
  c=$(median "$times" '$2 + $3')
  rss=$(median "$times" '$4 / 1024')
  b=$(minimum "$times" '$1')
  wall[$i]=$w
  best[$i]=$b
  cpu[$i]=$c
  case ${labels[i]} in
    *slice*) bytes=$slice_bytes ;;
    "python + import duckdb") bytes=0 ;;
    *) bytes=$plain_bytes ;;
  esac
  rate=$(awk -v b="$bytes" -v w="$w" 'BEGIN { if (b > 0 && w > 0) printf "%.0f", b / 1e6 / w; else printf "" }')
  printf '| %-26s | %10.2f s | %8.2f s | %10.2f s | %9.0f MiB | %14s |\n' \
    "${labels[i]}" "$w" "$b" "$c" "$rss" "$rate"
done

index_of() {
  local i
  for i in "${!labels[@]}"; do [[ ${labels[i]} == "$1" ]] && echo "$i" && return; done
  echo -1
}
ratio() {
  local a b
  a=$(index_of "$1")
  b=$(index_of "$2")
  ((a >= 0 && b >= 0)) || return 0
  awk -v x="${wall[$a]}" -v y="${wall[$b]}" -v bx="${best[$a]}" -v by="${best[$b]}" \
    -v cx="${cpu[$a]}" -v cy="${cpu[$b]}" -v l="$3" \
    'BEGIN { printf "%-28s %5.2f   (best wall %5.2f, CPU time %5.2f)\n", l, x / y, bx / by, cx / cy }'
}
printf '\nratios of median wall time (below 1: txfold is faster); on a busy machine the best wall\n'
printf 'time and the CPU time (user + system, all threads) are the steadier figures\n'
ratio "txfold group, plain" "DuckDB, plain" "txfold / DuckDB, plain:"
ratio "txfold group json, plain" "DuckDB, plain" "txfold json / DuckDB, plain:"
ratio "txfold group text, plain" "DuckDB, plain" "txfold text / DuckDB, plain:"
ratio "txfold csv, AVX2 kernel" "DuckDB, plain" "txfold csv AVX2 / DuckDB:"
ratio "txfold json, AVX2 kernel" "DuckDB, plain" "txfold json AVX2 / DuckDB:"
ratio "txfold group json, plain" "DuckDB with members, plain" "txfold json / DuckDB members:"
ratio "txfold summary, plain" "DuckDB summary, plain" "txfold summary / DuckDB:"
ratio "txfold summary, AVX2 kernel" "DuckDB summary, plain" "txfold summary AVX2 / DuckDB:"
ratio "txfold list, csv" "DuckDB list, csv" "txfold list / DuckDB list:"
ratio "txfold list, AVX2 kernel" "DuckDB list, csv" "txfold list AVX2 / DuckDB list:"
ratio "txfold group, gzip" "DuckDB, gzip" "txfold / DuckDB, gzip:"
ratio "txfold group, gzip" "gzip -dc (inflate alone)" "txfold gzip / gzip -dc:"
ratio "txfold group, gzip" "pigz -dc (inflate alone)" "txfold gzip / pigz -dc:"
ratio "txfold group, gzip" "zlib inflate loop (C)" "txfold gzip / zlib loop:"
ratio "txfold (ISA-L) group, gzip" "txfold group, gzip" "txfold ISA-L / zlib, gzip:"
ratio "txfold (ISA-L) group, gzip" "DuckDB, gzip" "txfold ISA-L / DuckDB, gzip:"
ratio "txfold (ISA-L) group, gzip" "zlib inflate loop (C)" "txfold ISA-L / zlib loop:"
ratio "txfold (ISA-L) group, gzip" "ISA-L inflate loop (C)" "txfold ISA-L / ISA-L loop:"
ratio "txfold (ISA-L) group, gzip" "txfold group, plain" "txfold ISA-L gzip / plain:"
ratio "txfold group, slice" "jq -s group_by, slice" "txfold / jq, slice:"

# budget LABEL GOAL BASELINE FLOOR TITLE: the CPU time a goal "LABEL <= GOAL x BASELINE" leaves
# on this machine's cores, how much of it the scan floor takes, and what txfold spends.
budget() {
  local a b f
  a=$(index_of "$1")
  b=$(index_of "$3")
  f=$(index_of "$4")
  ((a >= 0 && b >= 0 && f >= 0)) || return 0
  awk -v goal="$2" -v base="${wall[$b]}" -v cores="$(nproc)" -v floor="${cpu[$f]}" -v own="${cpu[$a]}" -v l="$5" \
    'BEGIN { left = goal * base * cores
      printf "%-28s %5.2f s   (scan floor %4.2f s, so %5.2f s for the rest; txfold %4.2f s, %4.2f s past the floor)\n",
        l, left, floor, left - floor, own, own - floor }'
}
printf "\nCPU time a goal leaves: the goal x the baseline's median wall x %s cores, all threads and the\n" "$(nproc)"
printf 'kernel included; the scan floor (reading, lines, token index) is spent before any walk\n'
floor_avx2="scan floor, AVX2 (C)"
[[ $(index_of "$floor_avx2") -ge 0 ]] || floor_avx2="scan floor (C)"
budget "txfold csv, AVX2 kernel" 0.4 "DuckDB, plain" "$floor_avx2" "group csv AVX2, 0.4 x:"
budget "txfold json, AVX2 kernel" 0.5 "DuckDB, plain" "$floor_avx2" "group json AVX2, 0.5 x:"
budget "txfold summary, AVX2 kernel" 0.5 "DuckDB summary, plain" "$floor_avx2" "summary AVX2, 0.5 x:"
budget "txfold group, plain" 0.4 "DuckDB, plain" "scan floor (C)" "group csv, 0.4 x:"
budget "txfold group json, plain" 0.5 "DuckDB, plain" "scan floor (C)" "group json, 0.5 x:"
budget "txfold summary, plain" 0.5 "DuckDB summary, plain" "scan floor (C)" "summary, 0.5 x:"

# --- The check: the same counts and totals -------------------------------------------------

printf '\n'
status=0
check() {
  if "$@"; then return 0; fi
  status=1
}
same_bytes() {
  if cmp -s "$1" "$2"; then
    printf 'OK        %s and %s are byte-identical\n' "$(basename "$1")" "$(basename "$2")"
  else
    printf 'MISMATCH  %s and %s differ\n' "$(basename "$1")" "$(basename "$2")"
    return 1
  fi
}
check same_bytes "$out/txfold-plain.csv" "$out/txfold-gzip.csv"
if $have_isal; then check same_bytes "$out/txfold-plain.csv" "$out/txfold-isal-gzip.csv"; fi
check same_bytes "$out/duckdb-plain.csv" "$out/duckdb-gzip.csv"
if [ -f "$out/txfold-plain-avx2.csv" ]; then
  check same_bytes "$out/txfold-plain.csv" "$out/txfold-plain-avx2.csv"
  check same_bytes "$out/txfold-plain.json" "$out/txfold-plain-avx2.json"
  check same_bytes "$out/txfold-summary.csv" "$out/txfold-summary-avx2.csv"
  check same_bytes "$out/txfold-list.csv" "$out/txfold-list-avx2.csv"
fi
check "$python" - "$out/txfold-plain.csv" "$out/duckdb-plain.csv" "$count" << 'EOF'
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
if sum(txfold_currency_counts.values()) != expected:
    problems.append(f"  txfold's currencyCount adds up to {sum(txfold_currency_counts.values())}, not {expected}")
if problems:
    print(f"MISMATCH  txfold and DuckDB disagree in {len(problems)} places:")
    print("\n".join(problems[:20]))
    sys.exit(1)
print(
    f"OK        txfold and DuckDB agree: {len(txfold_counts)} groups, {len(txfold_totals)} currency totals,"
    f" {records} records, every count and total exact"
)
EOF
check "$python" - "$out/txfold-summary.csv" "$out/duckdb-summary.csv" "$count" << 'EOF'
# txfold's summary CSV: per (key, currency) the count, income (amounts of zero or more) and
# expense (negative ones). DuckDB's: per (category, currency, indicator) the count and the sum of
# the written magnitudes. A missing or empty category is txfold's `(none)` and DuckDB's empty cell.
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
check "$python" - "$out/txfold-list.csv" "$out/duckdb-list.csv" "$count" << 'EOF'
# The two lists hold the same ids, each once, one per record of the dump; txfold's are in its
# order throughout: the instant (with its offset; none is UTC) later first, then the id byte-wise.
# (DuckDB's order is by the creationTime text, so it is not compared position by position.)
import csv
import sys
from datetime import datetime, timezone

txfold_path, duckdb_path, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
problems = []
ours = []
previous = None
with open(txfold_path, newline="", encoding="utf-8") as f:
    for number, row in enumerate(csv.DictReader(f), start=2):
        instant = datetime.fromisoformat(row["instant"])
        if instant.tzinfo is None:
            instant = instant.replace(tzinfo=timezone.utc)
        key = (instant, row["id"].encode())
        if previous is not None and (key[0] > previous[0] or (key[0] == previous[0] and key[1] < previous[1])):
            problems.append(f"  txfold's row {number} ({row['id']}, {row['instant']}) is out of order")
        previous = key
        ours.append(row["id"])
with open(duckdb_path, newline="", encoding="utf-8") as f:
    theirs = [row["id"] for row in csv.DictReader(f)]
if len(ours) != expected or len(theirs) != expected:
    problems.append(f"  txfold listed {len(ours)} rows, DuckDB {len(theirs)}, the dump has {expected}")
if len(set(ours)) != len(ours):
    problems.append("  txfold lists an id twice")
if set(ours) != set(theirs):
    only_ours, only_theirs = len(set(ours) - set(theirs)), len(set(theirs) - set(ours))
    problems.append(f"  the ids differ: {only_ours} only in txfold's, {only_theirs} only in DuckDB's")
if problems:
    print(f"MISMATCH  txfold's list and DuckDB's disagree in {len(problems)} places:")
    print("\n".join(problems[:20]))
    sys.exit(1)
same = sum(1 for a, b in zip(ours, theirs) if a == b)
print(
    f"OK        txfold's list and DuckDB's hold the same {len(ours)} ids; txfold's in time order"
    f" throughout ({same} at the same place as in DuckDB's text order)"
)
EOF
printf '\noutputs and logs: %s\n' "$out"
exit "$status"
