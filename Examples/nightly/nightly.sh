#!/usr/bin/env bash
# One night of a nightly job: tonight's export folded into the history kept so far (the state),
# and the accounts whose report changed tonight written out for an upsert into a database; or,
# when anything fails, the state left as it was and an exit status that says why.
#
#   nightly.sh EXPORT REPORT_DIR            # e.g. nightly.sh /exports/2026-11-27.jsonl.gz /srv/reports
#
# Keeps in REPORT_DIR: txfold.state (every transaction so far, for the next night), changed.jsonl
# (tonight's changed accounts, one report line each), daily.rejects.jsonl (every rejected line and
# why) and daily.stats.json (the run's accounting, written on every exit but a usage error). Each
# is replaced atomically; txfold.lock keeps two nights from running at once. Settings from the
# environment:
#   TXFOLD             the binary (default: txfold on PATH)
#   LOAD               a command that loads the changed accounts, run as: $LOAD changed.jsonl stats.json
#                      (e.g. Examples/postgres/upsert.sh); the state moves on only once it succeeds
#   MAX_REJECT_RATE    the largest share of rejected lines that still publishes (default 0.01)
#   MIN_ACCEPTED       the fewest accepted records that still publish (default 1)
#   TXFOLD_ARGS        more options for txfold group (e.g. "--timezone Europe/Amsterdam"); the
#                      state pins them: change them only with a fresh state
#   FIRST_NIGHT=yes    the very first night (or the first of a fresh state): start the history from
#                      this export. Without it a missing txfold.state fails the night (66): a lost
#                      state must not silently restart the history and publish it as every account's
# Only one night runs at a time in REPORT_DIR (txfold.lock): a night started while another still
# runs does nothing and exits 75 (EX_TEMPFAIL: run it again later).
# The exit status is txfold's (Documentation/Guide.md, "Running it nightly"), or the loader's: cron
# mails what this prints, systemd keeps it in the journal and marks the unit failed on anything but 0.
# A night that failed must be run again with the same export before the next one: each export is
# only that night's transactions, and a skipped one would be missing from every later report.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 EXPORT REPORT_DIR" >&2
  exit 64
fi
export_file="$1"
reports="$2"
txfold="${TXFOLD:-txfold}"

# One night at a time in REPORT_DIR: cron starts tomorrow's night whether or not tonight's has
# ended, and two nights folding onto the same state would each move it on without the other's
# export (the last to finish wins, the other's transactions are lost). The lock is the kernel's
# (flock), so a night that is killed releases it; txfold and $LOAD inherit it, so it is held
# until they have ended too.
if ! exec 9>> "$reports/txfold.lock"; then
  echo "nightly: cannot open $reports/txfold.lock (nothing published)" >&2
  exit 73
fi
if ! flock -n 9; then
  echo "nightly: another night is still running in $reports (it holds txfold.lock); this one did" \
    "nothing (state kept): run it again with the same export once that one has ended" >&2
  exit 75
fi
state="$reports/txfold.state"
# txfold never writes over the state it reads: tonight's goes beside it until the night has succeeded.
next_state="$reports/txfold.state.next"
state_in=()
if [ -f "$state" ]; then
  state_in=(--state-in "$state")
elif [ "${FIRST_NIGHT:-}" != yes ]; then
  echo "nightly: no state in $reports (txfold.state): restore last night's, or run the first night" \
    "of a history with FIRST_NIGHT=yes (nothing published)" >&2
  exit 66
fi

# Tonight's rejects file is told apart from last night's by its inode: txfold replaces the file
# whole (a new one) when it writes it, and leaves it as it was when it stops before reading (a
# refused state); the message on failure must not send the operator to last night's rejections.
rejects="$reports/daily.rejects.jsonl"
inode_of() { { ls -di "$1" 2> /dev/null || true; } | awk '{print $1}'; }
rejects_before="$(inode_of "$rejects")"

# shellcheck disable=SC2086 # TXFOLD_ARGS is a list of options, split on purpose.
status=0
"$txfold" group "$export_file" --per-account --format jsonl --changed-only -q --progress \
  -o "$reports/changed.jsonl" \
  --rejects "$rejects" \
  --stats "$reports/daily.stats.json" \
  "${state_in[@]}" --state-out "$next_state" \
  --max-reject-rate "${MAX_REJECT_RATE:-0.01}" \
  --min-accepted "${MIN_ACCEPTED:-1}" \
  ${TXFOLD_ARGS:-} || status=$?

# The state moves on only after the load: were the load to fail after it, the next night would
# not count tonight's accounts as changed, and the database would never get them.
loaded=true
if [ "$status" = 0 ] && [ -n "${LOAD:-}" ]; then
  # shellcheck disable=SC2086 # LOAD is a command line, split on purpose.
  $LOAD "$reports/changed.jsonl" "$reports/daily.stats.json" || { status=$?; loaded=false; }
fi
if [ "$status" = 0 ]; then
  mv -f "$next_state" "$state"
else
  rm -f "$next_state"
fi

case "$status" in
  0) echo "nightly: $(grep -c '' "$reports/changed.jsonl") changed accounts in $reports/changed.jsonl${LOAD:+, loaded}" ;;
  *)
    if ! $loaded; then
      echo "nightly: loading the changed accounts failed ($status); the state was kept: run this export again" >&2
    else
      case "$status" in
        64) echo "nightly: the command line is wrong; fix the job (nothing published)" >&2 ;;
        65)
          if [ -e "$rejects" ] && [ "$(inode_of "$rejects")" != "$rejects_before" ]; then
            echo "nightly: the export's data is wrong, or the state does not fit; see $rejects (state kept)" >&2
          else
            echo "nightly: the export's data is wrong, or the state does not fit; tonight's run wrote no" \
              "rejects file (the reason is above and in $reports/daily.stats.json) (state kept)" >&2
          fi
          ;;
        66) echo "nightly: the export cannot be opened (state kept)" >&2 ;;
        73) echo "nightly: $reports cannot be written to (state kept)" >&2 ;;
        74) echo "nightly: the export is cut off or damaged, or a disk failed (state kept)" >&2 ;;
        130 | 143) echo "nightly: stopped (state kept)" >&2 ;;
        *) echo "nightly: txfold exited $status (state kept)" >&2 ;;
      esac
    fi
    ;;
esac
exit "$status"
