#!/usr/bin/env python3
"""Loads every csv and jsonl output of txfold into DuckDB with Documentation/schemas/duckdb.sql
and checks row counts and exact totals against the json report of the same run.

    schema_check.py TXFOLD WORK_DIR        (Scripts/schema-check.sh sets it up)

For three inputs — the SampleData dumps (several schemas, rejected records, offsets, fractions,
bare dates), `txfold gen --count 20000 --seed 3 --accounts 150`, and a small dump at the edges
(amounts of 18 fraction digits and totals near 10^20, nine-digit fractions of a second, every
offset form, csv-hostile text and accounts) — it runs group, list and
summary, each plain and --per-account, in json, csv and jsonl. Each csv and jsonl file is read
with read_csv(…, columns={…}) or read_json(…, columns={…}), the columns being exactly those of
the table in duckdb.sql (the README's recipes), inserted into that table, and summed there in
DECIMAL(38, 18); the json report's figures are summed with Python's decimal.Decimal, in a
context of 200 digits that raises rather than rounds (the default's 28 digits would round a
sum of 38, and report a difference that is not there). Every
count and sum must be equal. Every instant column must convert to UTC, to the instant Python
computes from the text. A jsonl line must never be a stats line. Polars' recipes (README) are
checked too when Polars is installed. Exit 1 on any difference.
"""

import datetime
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
import decimal
from decimal import Decimal

import duckdb

TXFOLD, WORK = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = os.path.join(ROOT, "Documentation", "schemas", "duckdb.sql")
failures = []
# Exact: txfold's sums have up to 38 significant digits, past the default context's 28.
decimal.setcontext(decimal.Context(prec=200, traps=[decimal.Inexact, decimal.InvalidOperation]))


def fail(message):
    failures.append(message)
    print(f"FAIL: {message}")


def txfold(*args):
    result = subprocess.run([TXFOLD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        raise SystemExit(f"schema-check: txfold {' '.join(args)} exited {result.returncode}: "
                         f"{result.stderr.decode(errors='replace').strip()}")


def utc(text):
    """The instant of a timestamp as txfold writes it; no offset means UTC (no --timezone)."""
    value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc)


def add(totals, key, value):
    totals[key] = totals.get(key, Decimal(0)) + Decimal(value)


# --- What the json reports say -------------------------------------------------------------------

def group_figures(groups, into):
    """groups: json group objects. Adds rows and per-currency sums to `into`."""
    for group in groups:
        into["groups"] += 1
        into["count"] += group["count"]
        into["csv rows"] += max(1, len(group["totals"]))
        for total in group["totals"]:
            add(into["amount"], total["currency"], total["amount"])
        for member in group["transactions"]:
            add(into["member amount"], member["currency"], member["amount"])
            into["members"] += 1
        into["latest"].append(group["latest"])


def new_figures():
    return defaultdict(int, {"amount": {}, "member amount": {}, "latest": [], "fees": {}, "total": {},
                             "currency count": {}, "income": {}, "expense": {}})


def expected_group(document, per_account):
    figures = new_figures()
    if per_account:
        figures["accounts"] = len(document["accounts"])
        for account in document["accounts"]:
            for section in account["sections"]:
                group_figures(section["groups"], figures)
    else:
        for section in document["sections"]:
            group_figures(section["groups"], figures)
    return figures


def list_figures(page_sum, into):
    for cell in page_sum:
        add(into["amount"], cell["currency"], cell["amount"])
        add(into["fees"], cell["currency"], cell["fees"])
        add(into["total"], cell["currency"], cell["total"])
        add(into["currency count"], cell["currency"], cell["count"])


def expected_list(document, per_account):
    figures = new_figures()
    if per_account:
        figures["accounts"] = len(document["accounts"])
        for account in document["accounts"]:
            figures["rows"] += account["page"]["shown"]
            list_figures(account["sum"], figures)
            figures["latest"] += [t["instant"] for t in account["transactions"]]
    else:
        figures["rows"] = document["page"]["shown"]
        list_figures(document["sum"], figures)
        figures["latest"] = [t["instant"] for t in document["transactions"]]
    return figures


def summary_figures(entries, totals, into):
    into["entries"] += len(entries)
    into["csv rows"] += sum(len(entry["currencies"]) for entry in entries)
    for cell in totals:
        add(into["income"], cell["currency"], cell["income"])
        add(into["expense"], cell["currency"], cell["expense"])
        add(into["currency count"], cell["currency"], cell["count"])


def expected_summary(document, per_account):
    figures = new_figures()
    if per_account:
        figures["accounts"] = len(document["accounts"])
        for account in document["accounts"]:
            summary_figures(account["entries"], account["totals"], figures)
    else:
        summary_figures(document["entries"], document["totals"], figures)
    return figures


# --- Loading with the schemas ---------------------------------------------------------------------

def columns_of(connection, table):
    """The table's columns as read_csv/read_json take them, without the *_utc ones (filled on load)."""
    rows = connection.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
        "ORDER BY ordinal_position", [table]).fetchall()
    return {name: kind for name, kind in rows if not name.endswith("_utc")}


def duck_map(columns):
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items()) + "}"


def load(connection, table, path, kind):
    columns = columns_of(connection, table)
    utc_columns = [name for name in ("latest", "instant") if name in columns and f"{name}_utc" in
                   [row[0] for row in connection.execute(
                       "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]).fetchall()]]
    extra = "".join(f", CAST({name} AS TIMESTAMPTZ) AS {name}_utc" for name in utc_columns)
    if kind == "csv":
        source = f"read_csv('{path}', header = true, columns = {duck_map(columns)})"
    else:
        source = f"read_json('{path}', format = 'newline_delimited', columns = {duck_map(columns)})"
    connection.execute(f"DELETE FROM {table}")
    connection.execute(f"INSERT INTO {table} BY NAME SELECT *{extra} FROM {source}")
    return utc_columns


def sums(connection, query):
    """{currency: Decimal} from a query of (currency, sum)."""
    return {currency: Decimal(value) for currency, value in connection.execute(query).fetchall()
            if currency is not None}


def same(label, expected, actual):
    if isinstance(expected, dict):
        expected = {key: value for key, value in expected.items()}
        actual = {key: value for key, value in actual.items()}
    if expected != actual:
        fail(f"{label}: the json report gives {expected}, DuckDB {actual}")
        return False
    return True


def check_utc(connection, label, table, column, instants):
    rows = connection.execute(f"SELECT {column}, {column}_utc FROM {table}").fetchall()
    bad = [(text, value) for text, value in rows if value is None or value != utc(text)]
    if bad:
        fail(f"{label}: {len(bad)} {column}_utc values differ from the instant written, e.g. {bad[0]}")
    if sorted(text for text, _ in rows) != sorted(instants):
        fail(f"{label}: the {column} texts differ from the json report's")


def check_no_stats(label, path):
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if line.startswith('{"stats"') or line.startswith('{"sum"') or line.startswith('{"by"'):
                fail(f"{label}: line {number} is not a row: {line[:60]}")
                return


# --- The checks per command ------------------------------------------------------------------------

def check_group(connection, name, per_account, paths, expected):
    suffix = "_accounts" if per_account else ""
    label = f"{name}: group{' --per-account' if per_account else ''}"
    table = f"txfold_group{suffix}_csv"
    load(connection, table, paths["csv"], "csv")
    rows, count = connection.execute(f"SELECT count(*), sum(currencyCount) FROM {table}").fetchone()
    same(f"{label} csv rows", expected["csv rows"], rows)
    same(f"{label} csv sum(currencyCount)", expected["count"], int(count or 0))
    same(f"{label} csv sum(amount) per currency", expected["amount"],
         sums(connection, f"SELECT currency, sum(amount) FROM {table} GROUP BY currency"))
    check_utc(connection, f"{label} csv", table,
              "latest", [row[0] for row in connection.execute(f"SELECT latest FROM {table}").fetchall()])
    if per_account:
        same(f"{label} csv accounts", expected["accounts"],
             connection.execute(f"SELECT count(DISTINCT account) FROM {table}").fetchone()[0])

    table = f"txfold_group{suffix}_jsonl"
    check_no_stats(f"{label} jsonl", paths["jsonl"])
    load(connection, table, paths["jsonl"], "jsonl")
    if per_account:
        groups = (f"(SELECT unnest(s.groups, recursive := false) AS g FROM "
                  f"(SELECT unnest(sections, recursive := false) AS s FROM {table}))")
        same(f"{label} jsonl rows (accounts)", expected["accounts"],
             connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        same(f"{label} jsonl sum(count)", expected["count"],
             int(connection.execute(f"SELECT sum(count) FROM {table}").fetchone()[0] or 0))
    else:
        groups = f"(SELECT struct_pack(count := count, totals := totals, transactions := transactions) AS g FROM {table})"
        same(f"{label} jsonl rows (groups)", expected["groups"],
             connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        check_utc(connection, f"{label} jsonl", table, "latest", expected["latest"])
    same(f"{label} jsonl groups' sum(count)", expected["count"],
         int(connection.execute(f"SELECT sum(g.count) FROM {groups}").fetchone()[0] or 0))
    same(f"{label} jsonl totals per currency", expected["amount"], sums(
        connection, f"SELECT t.currency, sum(t.amount) FROM (SELECT unnest(g.totals) AS t FROM {groups}) "
                    f"GROUP BY t.currency"))
    same(f"{label} jsonl members per currency", expected["member amount"], sums(
        connection, f"SELECT m.currency, sum(m.amount) FROM (SELECT unnest(g.transactions) AS m FROM {groups}) "
                    f"GROUP BY m.currency"))


def check_list(connection, name, per_account, paths, expected):
    label = f"{name}: list{' --per-account' if per_account else ''}"
    tables = {"csv": "txfold_list_accounts_csv" if per_account else "txfold_list",
              "jsonl": "txfold_list_accounts_jsonl" if per_account else "txfold_list"}
    for kind in ("csv", "jsonl"):
        table = tables[kind]
        if kind == "jsonl":
            check_no_stats(f"{label} jsonl", paths["jsonl"])
        load(connection, table, paths[kind], kind)
        if per_account and kind == "jsonl":
            same(f"{label} jsonl rows (accounts)", expected["accounts"],
                 connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            same(f"{label} jsonl sum per currency", expected["amount"], sums(
                connection, f"SELECT s.currency, sum(s.amount) FROM (SELECT unnest(sum) AS s FROM {table}) "
                            f"GROUP BY s.currency"))
            rows = f"(SELECT unnest(transactions, recursive := false) AS t FROM {table})"
            source = f"(SELECT t.currency AS currency, t.amount AS amount, t.fee AS fee, t.total AS total FROM {rows})"
        else:
            source = table
            same(f"{label} {kind} rows", expected["rows"],
                 connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            check_utc(connection, f"{label} {kind}", table, "instant", expected["latest"])
        for column, key in (("amount", "amount"), ("coalesce(fee, 0)", "fees"), ("total", "total")):
            same(f"{label} {kind} sum({column}) per currency", expected[key], sums(
                connection, f"SELECT currency, sum({column}) FROM {source} GROUP BY currency"))
        same(f"{label} {kind} rows per currency", {c: Decimal(v) for c, v in expected["currency count"].items()},
             sums(connection, f"SELECT currency, count(*) FROM {source} GROUP BY currency"))


def check_summary(connection, name, per_account, paths, expected):
    suffix = "_accounts" if per_account else ""
    label = f"{name}: summary{' --per-account' if per_account else ''}"
    table = f"txfold_summary{suffix}_csv"
    load(connection, table, paths["csv"], "csv")
    same(f"{label} csv rows", expected["csv rows"], connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    cells = table
    for kind in ("csv", "jsonl"):
        if kind == "jsonl":
            table = f"txfold_summary{suffix}_jsonl"
            check_no_stats(f"{label} jsonl", paths["jsonl"])
            load(connection, table, paths["jsonl"], "jsonl")
            if per_account:
                same(f"{label} jsonl rows (accounts)", expected["accounts"],
                     connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
                entries = f"(SELECT unnest(entries, recursive := false) AS e FROM {table})"
                cells = f"(SELECT unnest(e.currencies, recursive := true) FROM {entries})"
            else:
                same(f"{label} jsonl rows (entries)", expected["entries"],
                     connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
                cells = f"(SELECT unnest(currencies, recursive := true) FROM {table})"
        for column in ("income", "expense"):
            same(f"{label} {kind} sum({column}) per currency", expected[column],
                 sums(connection, f"SELECT currency, sum({column}) FROM {cells} GROUP BY currency"))
        same(f"{label} {kind} sum(count) per currency",
             {c: Decimal(v) for c, v in expected["currency count"].items()},
             sums(connection, f"SELECT currency, sum(count) FROM {cells} GROUP BY currency"))


# --- Polars' recipes (README), when Polars is installed ---------------------------------------------

def check_polars(name, outputs):
    try:
        import polars as pl
    except ImportError:
        return False
    amount = pl.Decimal(38, 18)
    list_schema = {"id": pl.String, "instant": pl.String, "date": pl.Date, "state": pl.String,
                   "creditDebitIndicator": pl.String, "amount": amount, "currency": pl.String, "fee": amount,
                   "total": amount, "description": pl.String, "category": pl.String, "counterparty": pl.String}
    group_schema = {"state": pl.String, "date": pl.Date, "creditDebitIndicator": pl.String, "count": pl.Int64,
                    "currency": pl.String, "currencyCount": pl.Int64, "amount": amount, "latest": pl.String}
    listed = expected_list(json.load(open(outputs[("list", False)]["json"], encoding="utf-8")), False)
    for kind in ("csv", "jsonl"):
        path = outputs[("list", False)][kind]
        if kind == "csv":
            frame = pl.read_csv(path, schema=list_schema)
        else:  # Polars takes no decimal from a JSON string: read text, then cast (README)
            text = {name: pl.String if kind == amount else kind for name, kind in list_schema.items()}
            frame = pl.read_ndjson(path, schema=text).with_columns(
                pl.col("amount", "fee", "total").cast(amount))
        got = {row["currency"]: Decimal(str(row["amount"]))
               for row in frame.group_by("currency").agg(pl.col("amount").sum()).to_dicts()}
        same(f"{name}: polars list {kind} sum(amount) per currency", listed["amount"], got)
        same(f"{name}: polars list {kind} rows", listed["rows"], frame.height)
    grouped = expected_group(json.load(open(outputs[("group", False)]["json"], encoding="utf-8")), False)
    frame = pl.read_csv(outputs[("group", False)]["csv"], schema=group_schema)
    got = {row["currency"]: Decimal(str(row["amount"]))
           for row in frame.group_by("currency").agg(pl.col("amount").sum()).to_dicts() if row["currency"]}
    same(f"{name}: polars group csv sum(amount) per currency", grouped["amount"], got)
    return True


# --- SQLite (sqlite.sql): the csv outputs, amounts kept as text and summed exactly ---------------

def check_sqlite(name, outputs):
    import csv
    import sqlite3
    connection = sqlite3.connect(":memory:")
    with open(os.path.join(ROOT, "Documentation", "schemas", "sqlite.sql"), encoding="utf-8") as file:
        connection.executescript(file.read())
    plans = [(("group", False), "txfold_group_csv", "amount", expected_group, "latest"),
             (("group", True), "txfold_group_accounts_csv", "amount", expected_group, "latest"),
             (("list", False), "txfold_list", "amount", expected_list, "instant"),
             (("list", True), "txfold_list_accounts_csv", "amount", expected_list, "instant"),
             (("summary", False), "txfold_summary_csv", "income", expected_summary, None),
             (("summary", True), "txfold_summary_accounts_csv", "income", expected_summary, None)]
    for key, table, column, figures, instant in plans:
        label = f"{name}: SQLite {key[0]}{' --per-account' if key[1] else ''} csv"
        with open(outputs[key]["csv"], encoding="utf-8", newline="") as file:
            rows = list(csv.reader(file))
        width = len(rows[0])
        marks = ", ".join("?" * width)
        connection.executemany(f"INSERT INTO {table} ({', '.join(rows[0])}) VALUES ({marks})",
                               [[cell if cell != "" else None for cell in row] for row in rows[1:]])
        with open(outputs[key]["json"], encoding="utf-8") as file:
            expected = figures(json.load(file), key[1])
        got = {}
        for currency, value in connection.execute(f"SELECT currency, {column} FROM {table}"):
            if currency is not None:
                add(got, currency, value)  # the text as written, summed exactly
        same(f"{label} sum({column}) per currency", expected[column], got)
        if instant:
            bad = [(text, value) for text, value in connection.execute(f"SELECT {instant}, {instant}_utc FROM {table}")
                   if value != utc(text).strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc(text).microsecond // 1000:03d}Z"]
            if bad:
                fail(f"{label}: {len(bad)} {instant}_utc values differ from the instant written, e.g. {bad[0]}")
    connection.close()


# --- Main ---------------------------------------------------------------------------------------------

def write_edges(path):
    """A Backbase dump at the edges of what the schemas must hold: amounts with 18 fraction
    digits whose totals pass 28 significant digits (but stay below DECIMAL(38, 18)'s 10^20),
    instants with nine fraction digits, offsets `+0200`, `-05:30`, `Z` and none, bare dates,
    lower-case currencies and states, and text a csv reader must quote or guard."""
    ids = ["=1+2", "-5", "+x", "@a", "a,b", 'q"uote', "new\nline", "\rcr", "plain", "\u00e9"]
    texts = ['=HYPERLINK("x")', "-minus", "line1\nline2", 'comma, and "quote"', "", "\u00fcn\u00ef \u4e2d"]
    instants = ["2019-05-15T14:28:01.123456789Z", "2019-05-15T14:28:01+0200", "2019-05-15T23:59:59-05:30",
                "2019-05-17", "2019-05-15T00:00:00", "2019-05-16T01:02:03.5+14:00", "2019-05-14T22:00:00-1200"]
    amounts = ["0.000000000000000001", "99999999999999999.999999999999999999", "1919.95", "124", "0.10",
               "12.345", "0"]
    with open(path, "w", encoding="utf-8") as file:
        for index in range(300):
            record = {
                "id": f"{ids[index % len(ids)]}{index}",
                "arrangementId": ["A,1", 'A"2', "=A3", "A\n4", "-A5"][index % 5],
                "creationTime": instants[index % len(instants)],
                "transactionAmountCurrency": {"amount": amounts[index % len(amounts)],
                                              "currencyCode": ["EUR", "eur", "USD", "JPY", "PBP"][index % 5]},
                "creditDebitIndicator": ["CRDT", "DBIT"][index % 2],
                "state": ["PENDING", "COMPLETED", "rejected"][index % 3],
                "category": [7, "=cat", "Food, drinks"][index % 3],
                "counterPartyName": texts[index % len(texts)],
                "description": texts[(index + 1) % len(texts)],
            }
            file.write(json.dumps(record) + "\n")


def main():
    started = time.monotonic()
    sample = [os.path.join(ROOT, "SampleData", name) for name in sorted(os.listdir(os.path.join(ROOT, "SampleData")))
              if name.startswith("user-") or name in ("ledger-account.json", "psd2-account.json",
                                                      "swile-wallet.json", "payback-points.json")]
    generated = os.path.join(WORK, "gen.jsonl")
    txfold("gen", "--count", "20000", "--seed", "3", "--accounts", "150", "-o", generated)
    edges = os.path.join(WORK, "edges.jsonl")
    write_edges(edges)
    datasets = [("SampleData", sample, ["--account-from-file"]), ("gen 20000", [generated], []),
                ("edges", [edges], [])]

    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")  # a timestamp without an offset is UTC to txfold
    with open(SCHEMA, encoding="utf-8") as file:
        connection.execute(file.read())

    checks = {"group": (expected_group, check_group), "list": (expected_list, check_list),
              "summary": (expected_summary, check_summary)}
    polars_checked = False
    for index, (name, inputs, accounts) in enumerate(datasets):
        outputs = {}
        for command in checks:
            for per_account in (False, True):
                paths = {}
                for kind in ("json", "csv", "jsonl"):
                    path = os.path.join(WORK, f"{index}-{command}{'-accounts' if per_account else ''}.{kind}")
                    options = ["--per-account", *accounts] if per_account else []
                    if command == "summary":
                        options += ["--by", "category"]
                    txfold(command, "--quiet", "--format", kind, *options, "-o", path, *inputs)
                    paths[kind] = path
                outputs[(command, per_account)] = paths
                figures, check = checks[command]
                with open(paths["json"], encoding="utf-8") as file:
                    expected = figures(json.load(file), per_account)
                before = len(failures)
                try:
                    check(connection, name, per_account, paths, expected)
                except duckdb.Error as error:  # a value that does not fit its column: a failure too
                    fail(f"{name}: {command}{' --per-account' if per_account else ''}: DuckDB refused the load: "
                         f"{str(error).splitlines()[0]}")
                print(f"{'ok  ' if len(failures) == before else 'FAIL'} {name}: {command}"
                      f"{' --per-account' if per_account else ''}: csv and jsonl loaded with duckdb.sql, "
                      f"counts and exact totals equal the json report's")
        before = len(failures)
        try:
            check_sqlite(name, outputs)
        except Exception as error:  # noqa: BLE001 - a refused row is a failure of the check, not a crash
            fail(f"{name}: SQLite refused the load: {error}")
        print(f"{'ok  ' if len(failures) == before else 'FAIL'} {name}: SQLite, every csv output loaded with "
              f"sqlite.sql, exact totals (decimal text) and UTC columns equal")
        try:
            polars_checked = check_polars(name, outputs) or polars_checked
        except Exception as error:  # noqa: BLE001
            fail(f"{name}: Polars refused a recipe: {str(error).splitlines()[0]}")
    print(f"schema-check: DuckDB {duckdb.__version__}"
          f"{', Polars recipes checked' if polars_checked else ' (Polars not installed: its recipes not checked)'}; "
          f"{time.monotonic() - started:.1f} s")
    if failures:
        print(f"schema-check: {len(failures)} difference(s)")
        return 1
    print("schema-check: every csv and jsonl output loads with its schema and gives the json report's exact totals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
