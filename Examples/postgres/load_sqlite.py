#!/usr/bin/env python3
"""The SQLite variant: per-account txfold reports in one table, upserted on every run.

    txfold group --per-account --format jsonl dump.jsonl.gz -o accounts.jsonl --stats stats.json
    load_sqlite.py load accounts.db accounts.jsonl --stats stats.json   # create the table if needed, upsert
    load_sqlite.py upsert accounts.db accounts.jsonl stats.json         # the same (Examples/nightly's LOAD)
    load_sqlite.py check accounts.db                    # counts and totals per account
    load_sqlite.py check accounts.db --counts-csv c.csv --totals-csv t.csv

Python's standard library only. The table mirrors the PostgreSQL one (schema.sql):
the report is kept as JSON text (SQLite has no jsonb; json_valid guards it) and
queried with json_extract and json_each. SQLite's sum() works in floating point, so
the totals are summed by `dsum`, an aggregate defined here over decimal.Decimal:
exact to the last digit, as txfold's own totals are.

Every line of the jsonl file is one account (txfold's jsonl holds only its rows);
--stats names the run's --stats document, whose account count must equal the number
of lines. A line that is not an account object stops the load before anything is
written, with one line on standard error naming the file and line (exit 1).

A --changed-only report (its stats have "changedAccounts", the number of its lines)
holds only the accounts that changed: their old rows are deleted first and the rest
left alone, in the same transaction as the upsert, as load.sql does with changed_only.
"""

import argparse
import csv
import datetime
import decimal
import json
import sqlite3
import sys

# Exact sums: far more precision than 38 digits, and rounding raises instead of happening.
DECIMALS = decimal.Context(prec=200, traps=[decimal.Inexact, decimal.InvalidOperation])

SCHEMA = """
CREATE TABLE IF NOT EXISTS txfold_accounts (
  account   TEXT PRIMARY KEY,               -- txfold's account id (arrangementId)
  txn_count INTEGER NOT NULL,               -- the report's "count": transactions folded in
  report    TEXT NOT NULL CHECK (json_valid(report)),  -- the account's line, as txfold wrote it
  loaded_at TEXT NOT NULL                   -- UTC, ISO 8601: the last load that saw the account
);
"""

# The staging table is a temporary one: it lives in this connection only, like the
# PostgreSQL staging table lives in one load's transaction.
UPSERT = """
INSERT INTO txfold_accounts (account, txn_count, report, loaded_at)
SELECT json_extract(line, '$.account'), json_extract(line, '$.count'), line, :loaded_at
FROM staging
WHERE true  -- SQLite needs a WHERE here, or it reads ON CONFLICT as part of a join
ON CONFLICT (account) DO UPDATE SET
  txn_count = excluded.txn_count,
  report    = excluded.report,
  loaded_at = excluded.loaded_at
"""

COUNTS = """
SELECT a.account, a.txn_count,
       (SELECT sum(json_extract(g.value, '$.count'))
        FROM json_each(a.report, '$.sections') AS s, json_each(s.value, '$.groups') AS g) AS groups_count
FROM txfold_accounts AS a
ORDER BY a.account
"""

# One row per account and currency. The amounts are magnitudes; the group's
# indicator gives the sign (DBIT is money out).
TOTALS = """
SELECT a.account,
       json_extract(t.value, '$.currency') AS currency,
       dsum(CASE json_extract(g.value, '$.creditDebitIndicator')
            WHEN 'CRDT' THEN json_extract(t.value, '$.amount') END) AS credit,
       dsum(CASE json_extract(g.value, '$.creditDebitIndicator')
            WHEN 'DBIT' THEN json_extract(t.value, '$.amount') END) AS debit,
       dsum(CASE json_extract(g.value, '$.creditDebitIndicator')
            WHEN 'DBIT' THEN '-' || json_extract(t.value, '$.amount')
            ELSE json_extract(t.value, '$.amount') END) AS net
FROM txfold_accounts AS a,
     json_each(a.report, '$.sections') AS s,
     json_each(s.value, '$.groups') AS g,
     json_each(g.value, '$.totals') AS t
GROUP BY a.account, currency
ORDER BY a.account, currency
"""


class DecimalSum:
    """sum() over decimal text, exact; '0' when there is nothing to add."""

    def __init__(self):
        self.total = decimal.Decimal(0)

    def step(self, value):
        if value is None:
            return
        if not isinstance(value, str):
            raise TypeError(f"dsum takes decimal text, not {type(value).__name__}: {value!r}")
        self.total = DECIMALS.add(self.total, decimal.Decimal(value))

    def finalize(self):
        return f"{self.total:f}"


def connect(path):
    connection = sqlite3.connect(path)
    connection.create_aggregate("dsum", 1, DecimalSum)
    connection.executescript(SCHEMA)
    return connection


class LoadError(Exception):
    """A bad input: reported as one line on standard error, without a traceback."""


def read_report_lines(path):
    """The account lines of a txfold --per-account jsonl file, each checked to be an
    account object (`account` a string, `count` a whole number), ended by a newline."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise LoadError(f"{path}: {error.strerror}") from None
    if data and not data.endswith(b"\n"):
        raise LoadError(f"{path}: the last line has no newline; was the file cut short?")
    accounts = []
    for number, raw in enumerate(data.split(b"\n")[:-1] if data else [], start=1):
        try:
            line = raw.decode("utf-8")
            record = json.loads(line)
        except (UnicodeDecodeError, ValueError) as error:
            reason = error.msg if isinstance(error, json.JSONDecodeError) else type(error).__name__
            raise LoadError(f"{path}, line {number}: not a JSON line ({reason}); nothing was loaded") from None
        if not isinstance(record, dict) or "stats" in record:
            what = "a stats line (an older txfold's output: drop its last line)" if isinstance(record, dict) \
                else f"a JSON {type(record).__name__}"
            raise LoadError(f"{path}, line {number}: {what}, not an account; nothing was loaded")
        if not isinstance(record.get("account"), str) or type(record.get("count")) is not int:
            raise LoadError(f"{path}, line {number}: an object without a string \"account\" and a whole "
                            f"\"count\": not txfold group --per-account --format jsonl output; nothing was loaded")
        accounts.append(line)
    return accounts


def read_stats(path):
    """The run's --stats document (one JSON object)."""
    try:
        with open(path, encoding="utf-8") as file:
            stats = json.load(file)
    except OSError as error:
        raise LoadError(f"{path}: {error.strerror}") from None
    except ValueError as error:
        raise LoadError(f"{path}: not txfold's --stats document ({error})") from None
    if not isinstance(stats, dict):
        raise LoadError(f"{path}: not txfold's --stats document (not an object)")
    return stats


def load(args):
    accounts = read_report_lines(args.accounts_jsonl)
    stats = read_stats(args.stats) if args.stats else None
    changed_only = stats is not None and "changedAccounts" in stats
    key = "changedAccounts" if changed_only else "accounts"
    if stats is not None and stats.get(key) != len(accounts):
        raise LoadError(f"{args.accounts_jsonl}: {len(accounts)} account lines, but {args.stats} says "
                        f"{stats.get(key)} {'changed ' if changed_only else ''}accounts; nothing was loaded")
    loaded_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
    connection = connect(args.database)
    with connection:  # one transaction: a failed load changes nothing
        connection.execute("CREATE TEMP TABLE staging (line TEXT NOT NULL)")
        connection.executemany("INSERT INTO staging (line) VALUES (?)", ((line,) for line in accounts))
        if changed_only:  # each changed account whole: its old rows go first (load.sql says why)
            connection.execute("DELETE FROM txfold_accounts WHERE account IN "
                               "(SELECT json_extract(line, '$.account') FROM staging)")
        connection.execute(UPSERT, {"loaded_at": loaded_at})
        connection.execute("DROP TABLE staging")
    (rows,) = connection.execute("SELECT count(*) FROM txfold_accounts").fetchone()
    connection.close()
    counts = f"; txfold: {stats.get('accepted')} accepted, {stats.get('rejected')} rejected" if stats else ""
    print(f"SQLite: upserted {len(accounts)} accounts into {args.database} ({rows} rows{counts}) at {loaded_at}")


def write_csv(path, cursor):
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow([column[0] for column in cursor.description])
        writer.writerows(cursor)


def check(args):
    connection = connect(args.database)
    if args.counts_csv or args.totals_csv:
        if args.counts_csv:
            write_csv(args.counts_csv, connection.execute(COUNTS))
        if args.totals_csv:
            write_csv(args.totals_csv, connection.execute(TOTALS))
    else:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["account", "txn_count", "groups_count"])
        out.writerows(connection.execute(COUNTS))
        out.writerow([])
        out.writerow(["account", "currency", "credit", "debit", "net"])
        out.writerows(connection.execute(TOTALS))
    connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    loader = commands.add_parser("load", help="upsert a txfold --per-account jsonl file")
    loader.add_argument("database")
    loader.add_argument("accounts_jsonl")
    loader.add_argument("--stats", metavar="FILE",
                        help="txfold's --stats document of the run: its account count must match the lines")
    loader.set_defaults(run=load)
    upserter = commands.add_parser("upsert", help="load with the --stats document as the third argument")
    upserter.add_argument("database")
    upserter.add_argument("accounts_jsonl")
    upserter.add_argument("stats")
    upserter.set_defaults(run=load)
    checker = commands.add_parser("check", help="per-account counts and per-currency totals")
    checker.add_argument("database")
    checker.add_argument("--counts-csv", metavar="FILE", help="write account,txn_count,groups_count here")
    checker.add_argument("--totals-csv", metavar="FILE", help="write account,currency,credit,debit,net here")
    checker.set_defaults(run=check)
    args = parser.parse_args()
    try:
        args.run(args)
    except (LoadError, sqlite3.Error) as error:
        print(f"load_sqlite.py: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
