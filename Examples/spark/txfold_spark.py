#!/usr/bin/env python3
"""Fans `txfold group` out over Apache Spark and merges the partials in the driver.

Every partition of the input goes through `txfold group --emit partial` with
`RDD.pipe`; the partials (small: one line per group and kept member) come back
to the driver, which pipes them through `txfold merge` to write the report —
byte-identical to one `txfold group` run over all the input.

    python txfold_spark.py DUMP_OR_DIR [--partitions N] [--format json] [-o report.json]

Two ways to cut the input:

- lines (default): Spark reads the input with `textFile` (a file, a directory or a
  glob; `.gz` files are inflated by Spark) and pipes each partition's lines.
  One big plain file is split into `--partitions` pieces. Spark decodes lines as
  UTF-8 and also ends a line at a lone carriage return, so bytes that are not
  UTF-8, or raw CRs inside records, may be counted differently from txfold.
- `--whole-files`: the partitions hold file paths, and each task runs `txfold group`
  on its files itself (gzip detected from the content, exact for any bytes). The
  paths must be readable by every executor (a shared or local file system).

Per-account reports (`--per-account`, the account is `arrangementId`, or the dotted
path given with `--account-field`): each line is keyed by its account and the
lines are repartitioned by a hash of it (`partitionBy`), so each account's records
all land in one partition. Each partition then goes through
`txfold group --per-account --emit partial` (`mapPartitionsWithIndex`, the lines
piped to its standard input); the driver writes every partial to a file and runs
`txfold merge --per-account` over them — byte-identical to one
`txfold group --per-account` run, stats included, in any format.

    python txfold_spark.py DUMP_OR_DIR --per-account --partitions 64 --format jsonl -o accounts.jsonl

`--per-account-route direct` shows the alternative: after the repartition every
partition's report is complete for its accounts, so each partition writes
`txfold group --per-account --format jsonl` directly and the job only orders the
account lines (Spark's `sortByKey`) and adds up the partitions' counts, which each
task reads from its run's `--stats` file (a `jsonl` output holds only its rows, so
the job's output is the account lines alone, as txfold's is; the summed counts go
to standard error).
"""

import argparse
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import zlib

from pyspark import SparkConf, SparkContext


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a dump file, a directory of .jsonl/.jsonl.gz shards, or a glob")
    parser.add_argument("--txfold", default="txfold", help="the txfold binary (same path on every executor)")
    parser.add_argument("--master", help="Spark master URL (default: spark-submit's, else local[2])")
    parser.add_argument("--partitions", type=int, help="minimum number of partitions (splits large plain files)")
    parser.add_argument("--whole-files", action="store_true", help="give whole files to the tasks, not lines")
    parser.add_argument("--members", default="20", help="members kept per group (txfold group --members)")
    parser.add_argument("--timezone", help="IANA zone for days (txfold group --timezone)")
    parser.add_argument("--schema", help="input schema (txfold group --schema; default: detected)")
    parser.add_argument("--format", default="text", help="report format: text, json, jsonl or csv")
    parser.add_argument("--locale", default="en", help="locale of the text report")
    parser.add_argument("-o", "--output", help="write the report here (atomically) instead of standard output")
    parser.add_argument("--save-partials",
                        help="also write the collected partials to this file (with --per-account: this directory)")
    accounts = parser.add_argument_group("per-account reports")
    accounts.add_argument("--per-account", action="store_true",
                          help="one report per account: repartition the lines by account, "
                               "txfold group --per-account per partition")
    accounts.add_argument("--account-field", metavar="PATH",
                          help="dotted path of the account in each record (txfold --field account=PATH; "
                               "default: the schema's, arrangementId for backbase)")
    accounts.add_argument("--per-account-route", choices=["merge", "direct"], default="merge",
                          help="merge: a per-account partial per partition, then txfold merge --per-account "
                               "(default; any format, exact stats); direct: each partition writes jsonl, "
                               "the job orders the accounts and adds up the stats (jsonl only)")
    args = parser.parse_args()
    if args.per_account and args.whole_files:
        parser.error("--per-account reads lines: it does not combine with --whole-files")
    if not args.per_account and (args.account_field or args.per_account_route != "merge"):
        parser.error("--account-field and --per-account-route need --per-account")
    if args.per_account and args.per_account_route == "direct" and args.format != "jsonl":
        parser.error("--per-account-route direct writes jsonl only (use the merge route for other formats)")
    return args


def input_files(path):
    """The files of a directory or glob, sorted, for --whole-files."""
    if os.path.isdir(path):
        names = [os.path.join(path, name) for name in os.listdir(path)]
    else:
        names = glob.glob(path)
    return sorted(name for name in names if os.path.isfile(name) and not os.path.basename(name).startswith("."))


# Per-account mode ---------------------------------------------------------------------------

def account_of(line, path):
    """The account id of one JSON line as txfold sees it (a string, or an integer's decimal
    text), or None when the line has none or is not a JSON object: txfold rejects those lines
    and counts them, so they may go to any partition."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    for name in path:
        if not isinstance(value, dict):
            return None
        value = value.get(name)
    if isinstance(value, str):
        return value or None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None  # absent, null, a fraction, true, an object: rejected by txfold


def bucket_of(path):
    """Keys a line by a stable hash of its account (the same in every executor, unlike
    Python's hash() of a string), or of the line itself when it has no account, which spreads
    rejected lines over the partitions."""
    def bucket(line):
        account = account_of(line, path)
        return zlib.crc32((account if account is not None else line).encode("utf-8"))
    return bucket


def same_bucket(key):
    return key  # partitionBy takes it modulo the number of partitions


def run_txfold(command, index, lines):
    """Runs command with the partition's lines on its standard input (fed by a thread, so a
    partition is never held in memory) and returns its standard output."""
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
        failure = []

        def feed():
            try:
                for line in lines:
                    process.stdin.write(line.encode("utf-8") + b"\n")
            except BrokenPipeError:
                pass  # txfold stopped reading: its exit status says why
            except BaseException as error:  # noqa: BLE001 - re-raised in the task's thread
                failure.append(error)
            finally:
                try:
                    process.stdin.close()
                except BrokenPipeError:
                    pass

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        output = process.stdout.read()
        feeder.join()
        status = process.wait()
        if failure:
            raise failure[0]
        if status != 0:
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace").strip()
            raise RuntimeError(f"{shlex.join(command)} exited {status} on partition {index}: {message}")
        return output


def per_account_partials(command):
    def run(index, lines):
        yield index, run_txfold(command, index, lines)
    return run


# The counts of a run's --stats document that add up over partitions.
STATS_COUNTS = ("lines", "accepted", "rejected", "duplicates", "accounts")


def per_account_reports(command):
    """A partition's jsonl report as ("account", id bytes, line) items (every line is an
    account: a jsonl output holds only its rows), then ("stats", None, counts) read from
    the run's --stats file."""
    def run(index, lines):
        with tempfile.TemporaryDirectory() as directory:
            stats_path = os.path.join(directory, "stats.json")
            output = run_txfold(command + ["--stats", stats_path], index, lines)
            with open(stats_path, encoding="utf-8") as file:
                stats = json.load(file)
        for line in output.splitlines():
            record = json.loads(line)
            yield "account", record["account"].encode("utf-8"), line
        yield "stats", None, {key: stats.get(key) or 0 for key in STATS_COUNTS}
    return run


def add_stats(total, stats):
    for key, value in stats.items():
        total[key] = total.get(key, 0) + value
    return total


class ReportFile:
    """Standard output, or a file replaced atomically once the report is complete."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        if not self.path or self.path == "-":
            return sys.stdout.buffer
        directory = os.path.dirname(os.path.abspath(self.path))
        self.file = tempfile.NamedTemporaryFile(dir=directory, prefix=".txfold-", delete=False)
        return self.file

    def __exit__(self, kind, value, traceback):
        if not self.path or self.path == "-":
            sys.stdout.buffer.flush()
            return
        self.file.close()
        if kind is None:
            os.replace(self.file.name, self.path)
        else:
            os.unlink(self.file.name)


def run_per_account(args, context, txfold, settings, directory):
    """Writes one per-account partial per partition into directory and returns their paths
    (route merge), or writes the report itself and returns None (route direct)."""
    lines = context.textFile(args.input, minPartitions=args.partitions) if args.partitions \
        else context.textFile(args.input)
    partitions = args.partitions or lines.getNumPartitions()
    path = args.account_field.split(".") if args.account_field else ["arrangementId"]
    # Repartition by account: every line of an account goes to the same partition, so each
    # partition's per-account output is complete for the accounts it holds.
    by_account = lines.keyBy(bucket_of(path)).partitionBy(partitions, same_bucket).values()
    group = [txfold, "group", "--quiet", "--per-account", "--threads", "1"] + settings
    print(f"txfold_spark: master {context.master}, per-account ({args.per_account_route}), "
          f"{partitions} partitions", file=sys.stderr)

    if args.per_account_route == "direct":
        run_per_account_direct(args, by_account, group + ["--format", "jsonl"])
        return None

    partials = by_account.mapPartitionsWithIndex(per_account_partials(group + ["--emit", "partial"]))
    names = []
    # One partial at a time: the driver holds one partition's partial, never all of them.
    for index, partial in partials.toLocalIterator():
        name = os.path.join(directory, f"part-{index:05d}.apartial")
        with open(name, "wb") as file:
            file.write(partial)
        names.append(name)
    return names


def run_per_account_direct(args, by_account, group):
    reports = by_account.mapPartitionsWithIndex(per_account_reports(group)).cache()
    try:
        stats = {}
        for _, _, partition_stats in reports.filter(lambda item: item[0] == "stats").collect():
            add_stats(stats, partition_stats)
        accounts = reports.filter(lambda item: item[0] == "account") \
            .map(lambda item: (item[1], item[2])).sortByKey()
        previous = None
        with ReportFile(args.output) as output:
            for account, line in accounts.toLocalIterator():
                if account == previous:
                    # The job's key and txfold's account disagreed (an exotic id): use the merge route.
                    raise RuntimeError(f"account {account.decode()} came from two partitions")
                previous = account
                output.write(line + b"\n")
        # The run's accounting goes to standard error, as txfold's own does: not into the rows.
        print("txfold_spark: {lines} lines: {accepted} accepted, {rejected} rejected, {duplicates} duplicates; "
              "{accounts} accounts".format(**{key: stats.get(key, 0) for key in STATS_COUNTS}), file=sys.stderr)
    finally:
        reports.unpersist()
    return 0


def main():
    args = parse_arguments()
    # RDD.pipe starts the command with an empty environment, so PATH is not searched: use an absolute path.
    txfold = shutil.which(args.txfold) or args.txfold
    txfold = os.path.abspath(txfold)
    # The fold's settings, the same for every partition (merge refuses partials that differ).
    settings = ["--members", args.members]
    if args.timezone:
        settings += ["--timezone", args.timezone]
    if args.schema:
        settings += ["--schema", args.schema]
    if args.account_field:
        settings += ["--field", f"account={args.account_field}"]
    # One thread per task: Spark already runs one task per core.
    group = [txfold, "group", "--quiet", "--emit", "partial", "--threads", "1"] + settings
    merge = [txfold, "merge", "--quiet", "--format", args.format, "--locale", args.locale]
    if args.output:
        merge += ["--output", args.output]

    conf = SparkConf().setAppName("txfold").set("spark.ui.showConsoleProgress", "false")
    if args.master:
        conf.setMaster(args.master)
    elif not conf.contains("spark.master"):
        conf.setMaster("local[2]")
    if args.per_account:
        return main_per_account(args, conf, txfold, settings, merge)
    context = SparkContext(conf=conf)
    context.setLogLevel("WARN")
    try:
        if args.whole_files:
            files = input_files(args.input)
            slices = args.partitions or max(1, len(files))
            # xargs hands each task's paths to one txfold run; -r: an empty partition runs nothing.
            command = ["xargs", "-r", "-d", "\n"] + group
            partials = context.parallelize(files, slices).pipe(shlex.join(command), checkCode=True)
        else:
            lines = context.textFile(args.input, minPartitions=args.partitions) if args.partitions \
                else context.textFile(args.input)
            partials = lines.pipe(shlex.join(group), checkCode=True)
        print(
            f"txfold_spark: master {context.master}, {partials.getNumPartitions()} partitions",
            file=sys.stderr,
        )
        # Partials hold one line per group and kept member: small enough to collect. For very
        # many groups, write them with partials.saveAsTextFile(...) and run `txfold merge part-*`.
        collected = partials.collect()
    finally:
        context.stop()

    text = "".join(line + "\n" for line in collected).encode("utf-8")
    if args.save_partials:
        with open(args.save_partials, "wb") as saved:
            saved.write(text)
    return subprocess.run(merge, input=text).returncode


def main_per_account(args, conf, txfold, settings, merge):
    with tempfile.TemporaryDirectory(prefix="txfold-spark-") as scratch:
        directory = args.save_partials or scratch
        os.makedirs(directory, exist_ok=True)
        context = SparkContext(conf=conf)
        context.setLogLevel("WARN")
        try:
            names = run_per_account(args, context, txfold, settings, directory)
        finally:
            context.stop()
        if names is None:
            return 0  # the direct route wrote the report
        # merge --per-account takes one partial per input and reads them all at once, one account
        # at a time, like the merge step of a merge sort. (With thousands of partitions, merge
        # groups of them with --emit partial first, then merge those.)
        return subprocess.run(merge[:2] + ["--per-account"] + merge[2:] + names).returncode


if __name__ == "__main__":
    sys.exit(main())
