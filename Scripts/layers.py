#!/usr/bin/env python3
"""Checks the library's layering rule: a folder of Sources/TxFold may use the types of the folders
before it in LAYERS, never those after it (Render knows reports, not pipelines; framers throw their
sink's error, not the pipeline's). Uses listed in Scripts/layers-allowlist.txt (file and type
name, for debts being paid) are tolerated, and an entry that no longer occurs is reported so the
list only shrinks. Prints every use of a type from a later folder and exits 1 if
there is one; `--summary` prints only the counts per pair of folders.

How: every `struct`/`class`/`enum`/`protocol`/`typealias`/`actor` declared at the start of a line
(any indentation) names a type of its folder; every other file's identifiers (comments and string
literals removed) are looked up in that table. Nested types with a name used in two folders are
skipped (ambiguous), so the check errs on the side of silence, never of a false alarm.
"""
import os, re, sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "TxFold")
# The order data flows in; the README of each folder says what it holds (Documentation/Architecture.md).
LAYERS = ["Platform", "Model", "Input", "Framing", "Decode", "Fold", "Partial", "Query", "Order",
          "Render", "Output", "Pipeline"]
DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|nonisolated|indirect)\s+)*"
                  r"(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)", re.M)
IDENT = re.compile(r"\b([A-Z]\w*)\b")
# Names of the standard library's associated types (a `typealias Element` inside a Sequence
# conformance): a use of them is the protocol's, not a folder's.
STANDARD = {"Element", "Iterator", "Index", "Indices", "SubSequence", "Failure", "AsyncIterator"}

def strip(source):
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", "", source)
    source = re.sub(r"//[^\n]*", "", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)

def files():
    for folder in sorted(os.listdir(ROOT)):
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path) or folder.endswith(".docc"):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".swift"):
                yield folder, os.path.join(path, name)

def main():
    unknown = sorted({folder for folder, _ in files() if folder not in LAYERS})
    if unknown:
        print(f"layers: folders not in the layer list: {', '.join(unknown)}")
        return 1
    owner, sources = {}, {}
    for folder, path in files():
        text = strip(open(path, encoding="utf-8").read())
        sources[path] = (folder, text)
        for name in DECL.findall(text):
            if name in STANDARD:
                continue
            owner[name] = None if owner.get(name, folder) != folder else folder
    allowlist_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers-allowlist.txt")
    allowed = set()
    if os.path.exists(allowlist_path):
        for row in open(allowlist_path, encoding="utf-8"):
            row = row.split("#", 1)[0].split()
            if len(row) == 2:
                allowed.add((row[0], row[1]))
    used_allowances = set()
    violations = defaultdict(list)
    for path, (folder, text) in sources.items():
        rank = LAYERS.index(folder)
        for line_number, line in enumerate(text.split("\n"), 1):
            for name in set(IDENT.findall(line)):
                other = owner.get(name)
                if other and LAYERS.index(other) > rank:
                    key = (os.path.relpath(path, ROOT), name)
                    if key in allowed:
                        used_allowances.add(key)
                        continue
                    violations[(folder, other)].append(f"{os.path.relpath(path, ROOT)}:{line_number}: {name} ({other})")
    summary = "--summary" in sys.argv
    for (folder, other), rows in sorted(violations.items()):
        print(f"{folder} uses {other}: {len(rows)}")
        if not summary:
            for row in rows:
                print(f"  {row}")
    for file, name in sorted(allowed - used_allowances):
        print(f"layers: allow-list entry no longer needed, remove it: {file} {name}")
    total = sum(len(rows) for rows in violations.values())
    print(f"layers: {total} uses of a later folder's types" if total else "layers: every folder uses only the folders before it")
    return 1 if total else 0

if __name__ == "__main__":
    sys.exit(main())
