#!/usr/bin/env python3
"""The SQLite variant: per-account txfold reports in one table, upserted on every run.

    txfold group --per-account --format jsonl dump.jsonl.gz -o accounts.jsonl
    load_sqlite.py load accounts.db accounts.jsonl      # create the table if needed, upsert
    load_sqlite.py check accounts.db                    # counts and totals per account
    load_sqlite.py check accounts.db --counts-csv c.csv --totals-csv t.csv

Python's standard library only. The table mirrors the PostgreSQL one (schema.sql):
the report is kept as JSON text (SQLite has no jsonb; json_valid guards it) and
queried with json_extract and json_each. SQLite's sum() works in floating point, so
the totals are summed by `dsum`, an aggregate defined here over decimal.Decimal:
exact to the last digit, as txfold's own totals are.
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


def read_report_lines(path):
    """The account lines of a txfold --per-account jsonl file, and its stats.

    The last line must be txfold's stats line: a file without one was cut short."""
    with open(path, encoding="utf-8", newline="\n") as file:
        lines = [line.rstrip("\n") for line in file]
    if not lines:
        raise SystemExit(f"{path}: empty; expected txfold group --per-account --format jsonl output")
    try:
        stats = json.loads(lines[-1])["stats"]
    except (ValueError, KeyError, TypeError):
        raise SystemExit(f"{path}: the last line is not txfold's stats line; was the file cut short?") from None
    accounts = lines[:-1]
    if stats.get("accounts") != len(accounts):
        raise SystemExit(f"{path}: {len(accounts)} account lines, but the stats line says {stats.get('accounts')}")
    return accounts, stats


def load(args):
    accounts, stats = read_report_lines(args.accounts_jsonl)
    loaded_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
    connection = connect(args.database)
    with connection:  # one transaction: a failed load changes nothing
        connection.execute("CREATE TEMP TABLE staging (line TEXT NOT NULL)")
        connection.executemany("INSERT INTO staging (line) VALUES (?)", ((line,) for line in accounts))
        connection.execute(UPSERT, {"loaded_at": loaded_at})
        connection.execute("DROP TABLE staging")
    (rows,) = connection.execute("SELECT count(*) FROM txfold_accounts").fetchone()
    connection.close()
    print(f"SQLite: upserted {len(accounts)} accounts into {args.database} ({rows} rows; "
          f"txfold: {stats['accepted']} accepted, {stats['rejected']} rejected) at {loaded_at}")


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
    loader.set_defaults(run=load)
    checker = commands.add_parser("check", help="per-account counts and per-currency totals")
    checker.add_argument("database")
    checker.add_argument("--counts-csv", metavar="FILE", help="write account,txn_count,groups_count here")
    checker.add_argument("--totals-csv", metavar="FILE", help="write account,currency,credit,debit,net here")
    checker.set_defaults(run=check)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
