#!/usr/bin/env bash
# One night of a nightly job: tonight's export in, tomorrow's report out, or yesterday's report
# left as it was and an exit status that says why.
#
#   nightly.sh EXPORT REPORT_DIR            # e.g. nightly.sh /exports/2026-11-27.jsonl.gz /srv/reports
#
# Writes REPORT_DIR/daily.csv (the report), daily.rejects.jsonl (every rejected line and why) and
# daily.stats.json (the run's accounting, written on every exit but a usage error), each replaced
# atomically. Settings from the environment:
#   TXFOLD             the binary (default: txfold on PATH)
#   MAX_REJECT_RATE    the largest share of rejected lines that still publishes (default 0.01)
#   MIN_ACCEPTED       the fewest accepted records that still publish (default 1)
#   TXFOLD_ARGS        more options for txfold group (e.g. "--timezone Europe/Amsterdam")
# The exit status is txfold's (Documentation/Guide.md, "Running it nightly"): cron mails what this
# prints, systemd keeps it in the journal and marks the unit failed on anything but 0.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 EXPORT REPORT_DIR" >&2
  exit 64
fi
export_file="$1"
reports="$2"
txfold="${TXFOLD:-txfold}"

# shellcheck disable=SC2086 # TXFOLD_ARGS is a list of options, split on purpose.
status=0
"$txfold" group "$export_file" --format csv -q --progress \
  -o "$reports/daily.csv" \
  --rejects "$reports/daily.rejects.jsonl" \
  --stats "$reports/daily.stats.json" \
  --max-reject-rate "${MAX_REJECT_RATE:-0.01}" \
  --min-accepted "${MIN_ACCEPTED:-1}" \
  ${TXFOLD_ARGS:-} || status=$?

case "$status" in
  0) echo "nightly: published $reports/daily.csv" ;;
  64) echo "nightly: the command line is wrong; fix the job (nothing published)" >&2 ;;
  65) echo "nightly: the export's data is wrong; see $reports/daily.rejects.jsonl (yesterday's report kept)" >&2 ;;
  66) echo "nightly: the export cannot be opened (yesterday's report kept)" >&2 ;;
  73) echo "nightly: $reports cannot be written to (yesterday's report kept)" >&2 ;;
  74) echo "nightly: the export is cut off or damaged, or a disk failed (yesterday's report kept)" >&2 ;;
  130 | 143) echo "nightly: stopped (yesterday's report kept)" >&2 ;;
  *) echo "nightly: txfold exited $status" >&2 ;;
esac
exit "$status"
