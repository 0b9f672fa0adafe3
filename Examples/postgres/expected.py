#!/usr/bin/env python3
"""What every account's count and totals must be, computed from the raw dump alone.

An oracle for test.sh that shares no code with txfold: it reads the Backbase records
itself, decides which ones txfold accepts, and sums their amounts per account and
currency with decimal.Decimal. It can then check what a database gave back:

    expected.py dump.jsonl                                   # print the expected figures
    expected.py dump.jsonl --stats stats.json --accounts accounts.jsonl \\
        --check-counts counts.csv --check-totals totals.csv  # exit 1 on any difference

counts.csv has the columns account,txn_count,groups_count and totals.csv
account,currency,credit,debit,net (check.sql and load_sqlite.py write them). Amounts
are compared as exact decimals, so "0.30" equals "0.3" but never "0.30000001".

The rules (Documentation/Formats.md and Guide.md, as `txfold group --per-account`
applies them with the Backbase schema):
- every accepted record counts once in its account (no --dedupe); rejected ones not at all;
- the account is `arrangementId`: a non-empty string, or a JSON integer as written;
- a group's totals are sums of magnitudes, so per currency the credit total sums the
  CRDT amounts and the debit total the DBIT ones; net = credit - debit (DBIT is negative);
- amounts are `transactionAmountCurrency.amount`, a string `-?digits(.digits)?` or a JSON
  number, never negative (Backbase writes magnitudes), at most 18 fraction digits and 38
  significant digits; fees are not part of the totals.

Only the rejections a Backbase dump can plausibly hold are mirrored (syntax, missing
or mistyped fields, amounts, indicators, timestamps, record size). Use --stats to
compare the accepted and rejected counts with txfold's own --stats document (and
--accounts to count the lines of its jsonl, one per account), so that a rule
this file does not know about shows up as a failure rather than as a silent difference.
"""

import argparse
import csv
import datetime
import decimal
import json
import re
import sys
from collections import defaultdict

# Sums of up to 38-digit amounts must never round: a precision far above that, and
# Inexact trapped, so any rounding raises instead of changing a digit.
decimal.setcontext(decimal.Context(prec=200, traps=[decimal.Inexact, decimal.InvalidOperation]))

MAX_RECORD_BYTES = 1024 * 1024  # txfold's default --max-record-bytes (1M)
MAX_FRACTION_DIGITS = 18
MAX_SIGNIFICANT_DIGITS = 38

WRITTEN_AMOUNT = re.compile(r"-?([0-9]+)(?:\.([0-9]+))?\Z")
TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
    r"(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]{1,9})?"
    r"(?:Z|[+-]([0-9]{2}):?([0-9]{2}))?)?\Z"
)


class Rejected(Exception):
    """A record txfold would reject; the message is for people only."""


class JSONNumber(str):
    """A JSON number kept as the text it was written with (json.loads would make a float)."""


class JSONInteger(JSONNumber):
    """A JSON number without fraction or exponent."""


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")  # Python accepts NaN and Infinity; JSON does not


def parse_record(raw):
    return json.loads(raw, parse_float=JSONNumber, parse_int=JSONInteger, parse_constant=reject_constant)


def text_field(record, key, optional=False):
    """A string field: required ones must be present and non-empty; an optional one
    (the description) may be absent, null or "", but never another type."""
    value = record.get(key)
    if value is None:
        if optional:
            return None
        raise Rejected(f"missing {key}")
    if not isinstance(value, str) or isinstance(value, JSONNumber) or (value == "" and not optional):
        raise Rejected(f"invalid {key}")
    return value


def account_of(record):
    value = record.get("arrangementId")
    if value is None or value == "":
        raise Rejected("missing account")
    if isinstance(value, JSONInteger):
        return str(value)  # the integer as written: 42 is account "42"
    if isinstance(value, str) and not isinstance(value, JSONNumber):
        return value
    raise Rejected("invalid account")


def check_id(record):
    value = record.get("id")
    if value is None:
        raise Rejected("missing id")
    if isinstance(value, JSONInteger):
        return
    if isinstance(value, str) and not isinstance(value, JSONNumber) and value != "":
        return
    raise Rejected("invalid id")


def amount_of(container):
    """The amount as an exact Decimal, with txfold's limits."""
    if not isinstance(container, dict) or container.get("amount") is None:
        raise Rejected("missing amount")
    value = container["amount"]
    if isinstance(value, JSONNumber):
        text = str(value)
        if "e" in text.lower():
            # A number with an exponent is judged by its value's shortest exact form.
            amount = decimal.Decimal(text)
            if amount != 0:
                _, digits, exponent = amount.normalize().as_tuple()
                if exponent < 0 and -exponent > MAX_FRACTION_DIGITS:
                    raise Rejected("amount out of range")
                if len(digits) + max(exponent, 0) > MAX_SIGNIFICANT_DIGITS:
                    raise Rejected("amount out of range")
            return check_sign(amount)
    elif isinstance(value, str):
        text = value
    else:
        raise Rejected("invalid amount")
    match = WRITTEN_AMOUNT.match(text)
    if not match:
        raise Rejected("invalid amount")  # also exponents inside strings, spaces, "1.", ".5"
    whole, fraction = match.group(1), match.group(2) or ""
    if len(fraction) > MAX_FRACTION_DIGITS or len((whole + fraction).lstrip("0")) > MAX_SIGNIFICANT_DIGITS:
        raise Rejected("amount out of range")
    return check_sign(decimal.Decimal(text))


def check_sign(amount):
    if amount < 0:
        raise Rejected("negative amount")  # Backbase writes magnitudes; "-0" is zero and fine
    return abs(amount)  # abs: "-0" counts as 0


def check_timestamp(value):
    if not isinstance(value, str) or isinstance(value, JSONNumber):
        raise Rejected("invalid timestamp")
    match = TIMESTAMP.match(value)
    if not match:
        raise Rejected("invalid timestamp")
    year, month, day = (int(part) for part in match.group(1, 2, 3))
    hour, minute, second, offset_hours, offset_minutes = (int(part or 0) for part in match.group(4, 5, 6, 7, 8))
    try:
        datetime.date(year, month, day)  # also refuses year 0000 and 2019-02-30
    except ValueError:
        raise Rejected("invalid timestamp") from None
    if hour > 23 or minute > 59 or second > 59 or offset_hours > 23 or offset_minutes > 59:
        raise Rejected("invalid timestamp")


def decide(raw):
    """(account, indicator, currency, amount) of an accepted record; raises Rejected otherwise."""
    if len(raw) > MAX_RECORD_BYTES:
        raise Rejected("record too large")
    try:
        record = parse_record(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Rejected("invalid JSON") from None
    if not isinstance(record, dict):
        raise Rejected("not an object")
    account = account_of(record)
    check_id(record)
    check_timestamp(record.get("creationTime"))
    money = record.get("transactionAmountCurrency")
    amount = amount_of(money)
    currency = text_field(money, "currencyCode")
    indicator = record.get("creditDebitIndicator")
    if indicator is None:
        raise Rejected("missing indicator")
    if indicator not in ("CRDT", "DBIT") or isinstance(indicator, JSONNumber):
        raise Rejected("invalid indicator")
    text_field(record, "state")
    text_field(record, "description", optional=True)
    return account, indicator, currency, amount


class Expected:
    def __init__(self):
        self.lines = self.accepted = self.rejected = 0
        self.counts = defaultdict(int)
        # account -> currency -> [credit, debit]
        self.totals = defaultdict(lambda: defaultdict(lambda: [decimal.Decimal(0), decimal.Decimal(0)]))

    def read(self, path):
        with open(path, "rb") as dump:
            for line in dump:
                raw = line.strip(b" \t\r\n")
                if not raw:
                    continue  # blank lines are not records
                self.lines += 1
                try:
                    account, indicator, currency, amount = decide(raw)
                except Rejected:
                    self.rejected += 1
                    continue
                self.accepted += 1
                self.counts[account] += 1
                self.totals[account][currency][0 if indicator == "CRDT" else 1] += amount

    def total_rows(self):
        """(account, currency) -> (credit, debit, net)."""
        rows = {}
        for account, currencies in self.totals.items():
            for currency, (credit, debit) in currencies.items():
                rows[(account, currency)] = (credit, debit, credit - debit)
        return rows


def byte_order(text):
    return text.encode("utf-8")  # txfold orders accounts byte-wise


def read_csv(path, columns):
    with open(path, newline="", encoding="utf-8") as file:
        reader = csv.DictReader(file)
        missing = [column for column in columns if column not in (reader.fieldnames or [])]
        if missing:
            raise SystemExit(f"{path}: missing column(s) {', '.join(missing)}; has {reader.fieldnames}")
        return list(reader)


def exact(text, where):
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise SystemExit(f"{where}: {text!r} is not a decimal number") from None


class Checker:
    def __init__(self, label):
        self.label = label
        self.problems = []

    def fail(self, message):
        self.problems.append(message)

    def stats(self, expected, stats_json):
        try:
            with open(stats_json, encoding="utf-8") as file:
                stats = json.load(file)
            stats.get("accepted")
        except (OSError, ValueError, AttributeError):
            self.fail(f"{stats_json}: not txfold's --stats document")
            return
        mine = {"lines": expected.lines, "accepted": expected.accepted, "rejected": expected.rejected,
                "duplicates": 0, "accounts": len(expected.counts)}
        for key, value in mine.items():
            if stats.get(key) != value:
                self.fail(f"stats.{key}: txfold says {stats.get(key)}, the dump gives {value}")

    def account_lines(self, expected, accounts_jsonl):
        """A jsonl output holds only its rows: one line per account, nothing else."""
        with open(accounts_jsonl, "rb") as file:
            lines = file.read().splitlines()
        if len(lines) != len(expected.counts):
            self.fail(f"{accounts_jsonl}: {len(lines)} lines, the dump has {len(expected.counts)} accounts")
        for number, line in enumerate(lines, start=1):
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not isinstance(record, dict) or "account" not in record:
                self.fail(f"{accounts_jsonl}, line {number}: not an account line")
                break

    def counts(self, expected, path):
        seen = set()
        for row in read_csv(path, ["account", "txn_count", "groups_count"]):
            account = row["account"]
            if account in seen:
                self.fail(f"account {account!r} appears twice")
            seen.add(account)
            want = expected.counts.get(account)
            if want is None:
                self.fail(f"account {account!r} is not in the dump")
                continue
            for column in ("txn_count", "groups_count"):
                if row[column] != str(want):
                    self.fail(f"account {account!r}: {column} {row[column]}, expected {want}")
        for account in expected.counts.keys() - seen:
            self.fail(f"account {account!r} ({expected.counts[account]} transactions) is missing")

    def totals(self, expected, path):
        want_rows = expected.total_rows()
        seen = set()
        for row in read_csv(path, ["account", "currency", "credit", "debit", "net"]):
            key = (row["account"], row["currency"])
            if key in seen:
                self.fail(f"{key} appears twice")
            seen.add(key)
            want = want_rows.get(key)
            if want is None:
                self.fail(f"{key}: totals for a currency the account does not have")
                continue
            for column, value in zip(("credit", "debit", "net"), want):
                got = exact(row[column], f"{path}, {key} {column}")
                if got != value:
                    self.fail(f"{key} {column}: {row[column]}, expected {value}")
        for key in want_rows.keys() - seen:
            self.fail(f"{key}: totals missing")

    def report(self):
        if not self.problems:
            return True
        print(f"{self.label}: {len(self.problems)} difference(s) from the dump:", file=sys.stderr)
        for problem in self.problems[:20]:
            print(f"  {problem}", file=sys.stderr)
        if len(self.problems) > 20:
            print(f"  … and {len(self.problems) - 20} more", file=sys.stderr)
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dumps", nargs="+", help="the raw dump(s), JSON lines, read as one stream")
    parser.add_argument("--stats", metavar="STATS_JSON", help="compare with this txfold --stats document")
    parser.add_argument("--accounts", metavar="ACCOUNTS_JSONL",
                        help="check that this txfold --per-account jsonl holds one line per account, nothing else")
    parser.add_argument("--check-counts", metavar="CSV", help="account,txn_count,groups_count to compare")
    parser.add_argument("--check-totals", metavar="CSV", help="account,currency,credit,debit,net to compare")
    parser.add_argument("--label", default="check", help="names the database in messages")
    parser.add_argument("--summary", action="store_true", help="print only the record and account counts")
    args = parser.parse_args()

    expected = Expected()
    for path in args.dumps:
        expected.read(path)

    if not (args.stats or args.accounts or args.check_counts or args.check_totals):
        print(f"{expected.lines} records: {expected.accepted} accepted, {expected.rejected} rejected; "
              f"{len(expected.counts)} accounts")
        if args.summary:
            return 0
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["account", "currency", "count", "credit", "debit", "net"])
        rows = expected.total_rows()
        for account, currency in sorted(rows, key=lambda key: (byte_order(key[0]), key[1])):
            out.writerow([account, currency, expected.counts[account], *(f"{value:f}" for value in rows[(account, currency)])])
        return 0

    checker = Checker(args.label)
    if args.stats:
        checker.stats(expected, args.stats)
    if args.accounts:
        checker.account_lines(expected, args.accounts)
    if args.check_counts:
        checker.counts(expected, args.check_counts)
    if args.check_totals:
        checker.totals(expected, args.check_totals)
    if not checker.report():
        return 1
    print(f"{args.label}: {len(expected.counts)} accounts and {len(expected.total_rows())} account-currency "
          f"totals equal the dump's ({expected.accepted} accepted records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
