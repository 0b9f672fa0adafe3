#!/usr/bin/env python3
"""Fans `txfold group` out over Apache Spark and merges the partials in the driver.

Every partition of the input goes through `txfold group --emit partial` with
`RDD.pipe`; the partials (small: one line per group and kept member) come back
to the driver, which pipes them through `txfold merge` to write the report —
byte-identical to one `txfold group` run over all the input.

    python txfold_spark.py DUMP_OR_DIR [--partitions N] [--format json] [-o report.json]

With `--per-account`, the lines are first repartitioned by account (`partitionBy` on the
account key, `--account-field`, default `arrangementId`), so every account lives in one
partition; each partition runs `txfold group --per-account --emit partial`, and the driver
hands the partials, one file each, to `txfold merge --per-account`, which puts the accounts in
order — the same bytes as one `txfold group --per-account` run.

Two ways to cut the input:

- lines (default): Spark reads the input with `textFile` (a file, a directory or a
  glob; `.gz` files are inflated by Spark) and pipes each partition's lines.
  One big plain file is split into `--partitions` pieces. Spark decodes lines as
  UTF-8 and also ends a line at a lone carriage return, so bytes that are not
  UTF-8, or raw CRs inside records, may be counted differently from txfold.
- `--whole-files`: the partitions hold file paths, and each task runs `txfold group`
  on its files itself (gzip detected from the content, exact for any bytes). The
  paths must be readable by every executor (a shared or local file system).
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
    parser.add_argument("--format", default="text", help="report format: text, json, jsonl or csv")
    parser.add_argument("--locale", default="en", help="locale of the text report")
    parser.add_argument("-o", "--output", help="write the report here (atomically) instead of standard output")
    parser.add_argument("--save-partials", help="also write the collected partials to this file")
    parser.add_argument(
        "--per-account", action="store_true",
        help="every account's own report: repartition by account, then txfold group --per-account per partition",
    )
    parser.add_argument("--account-field", default="arrangementId", help="the record's account key (--per-account)")
    return parser.parse_args()


def input_files(path):
    """The files of a directory or glob, sorted, for --whole-files."""
    if os.path.isdir(path):
        names = [os.path.join(path, name) for name in os.listdir(path)]
    else:
        names = glob.glob(path)
    return sorted(name for name in names if os.path.isfile(name) and not os.path.basename(name).startswith("."))


def account_of(line, field):
    """The account a record belongs to, for partitioning: its `field`, or None
    (a malformed record or one without an account: txfold rejects and counts it
    in whichever partition it lands)."""
    try:
        value = json.loads(line).get(field)
    except (ValueError, AttributeError):
        return None
    return None if value is None else str(value)


def main():
    args = parse_arguments()
    # RDD.pipe starts the command with an empty environment, so PATH is not searched: use an absolute path.
    txfold = shutil.which(args.txfold) or args.txfold
    txfold = os.path.abspath(txfold)
    # One thread per task: Spark already runs one task per core.
    group = [txfold, "group", "--quiet", "--emit", "partial", "--threads", "1", "--members", args.members]
    if args.timezone:
        group += ["--timezone", args.timezone]
    if args.per_account:
        group.insert(2, "--per-account")
    merge = [txfold, "merge", "--quiet", "--format", args.format, "--locale", args.locale]
    if args.per_account:
        merge.insert(2, "--per-account")
    if args.output:
        merge += ["--output", args.output]

    conf = SparkConf().setAppName("txfold").set("spark.ui.showConsoleProgress", "false")
    if args.master:
        conf.setMaster(args.master)
    elif not conf.contains("spark.master"):
        conf.setMaster("local[2]")
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
            if args.per_account:
                # Every account's records into one partition: each partition's per-account partial
                # is then complete for its accounts, and the merge only puts the accounts in order.
                field = args.account_field
                slices = args.partitions or lines.getNumPartitions()
                lines = lines.map(lambda line: (account_of(line, field), line)).partitionBy(slices).values()
            partials = lines.pipe(shlex.join(group), checkCode=True)
        print(
            f"txfold_spark: master {context.master}, {partials.getNumPartitions()} partitions",
            file=sys.stderr,
        )
        # Partials hold one line per group and kept member: small enough to collect. For very
        # many groups, write them with partials.saveAsTextFile(...) and run `txfold merge part-*`.
        # Per account, one file per partition: `merge --per-account` reads each partial as its own input.
        collected = partials.glom().collect() if args.per_account else partials.collect()
    finally:
        context.stop()

    if args.per_account:
        work = tempfile.mkdtemp(prefix="txfold-spark-")
        try:
            paths = []
            for index, partition in enumerate(collected):
                path = os.path.join(work, f"part-{index:05d}.partial")
                with open(path, "wb") as part:
                    part.write("".join(line + "\n" for line in partition).encode("utf-8"))
                paths.append(path)
            if args.save_partials:
                with open(args.save_partials, "wb") as saved:
                    for path in paths:
                        with open(path, "rb") as part:
                            saved.write(part.read())
            return subprocess.run(merge + paths).returncode
        finally:
            shutil.rmtree(work, ignore_errors=True)

    text = "".join(line + "\n" for line in collected).encode("utf-8")
    if args.save_partials:
        with open(args.save_partials, "wb") as saved:
            saved.write(text)
    return subprocess.run(merge, input=text).returncode


if __name__ == "__main__":
    sys.exit(main())
