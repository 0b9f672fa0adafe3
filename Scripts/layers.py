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

Members declared in extensions count too: a `func`/`var`/`let` declared in the body of an
`extension X { ... }` in a file of folder F is F's, whoever owns X, and a use `.name` elsewhere is
a use of F (`Decode`'s `UInt8.newline` used in `Framing` is a backward use even though `UInt8` is
nobody's). A member name declared at member level (an extension's or a type's member, an enum
case) in two folders is ambiguous and skipped, as are the standard library's member names
(STANDARD_MEMBERS: an extension may add an overload of `append`, but `.append` is the Array's).
"""
import os, re, sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "TxFold")
# The order data flows in; the README of each folder says what it holds (Documentation/Architecture.md).
LAYERS = ["Platform", "Model", "Input", "Framing", "Decode", "Fold", "Partial", "Query", "Spill", "Order",
          "Render", "Output", "Pipeline"]
DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|nonisolated|indirect)\s+)*"
                  r"(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)", re.M)
IDENT = re.compile(r"\b([A-Z]\w*)\b")
# Names of the standard library's associated types (a `typealias Element` inside a Sequence
# conformance): a use of them is the protocol's, not a folder's.
STANDARD = {"Element", "Iterator", "Index", "Indices", "SubSequence", "Failure", "AsyncIterator"}

# Member names the standard library and Foundation declare: a `.name` use is most likely theirs.
STANDARD_MEMBERS = {
    "description", "debugDescription", "count", "isEmpty", "first", "last", "append", "contains", "zero",
    "hash", "hashValue", "encode", "init", "next", "makeIterator", "min", "max", "map", "filter", "reduce",
    "sorted", "sort", "insert", "remove", "removeAll", "index", "indices", "startIndex", "endIndex",
    "errorDescription", "localizedDescription", "rawValue", "data", "string", "value", "values", "keys",
    "lowercased", "uppercased", "compare", "isNewline", "isWhitespace", "write", "read", "close", "size",
    "capacity", "reserveCapacity", "withUnsafeBytes", "withUnsafeBufferPointer", "prefix", "suffix",
    "dropFirst", "dropLast", "split", "joined", "reversed", "enumerated", "lazy", "isASCII", "utf8",
}
MEMBER = re.compile(r"\b(?:func|var|let)\s+([a-zA-Z_]\w*)|\bcase\s+([a-zA-Z_][\w\s,()_:.=\[\]<>?\"-]*)")
# A function's key: its name and first argument label, `day(of:` (`day(_:` unlabelled, `day()` none),
# so that `zone.day(of:)` is told from `stamp.day` and `report(stats:)` from another `report(...)`.
FUNC_KEY = re.compile(r"\bfunc\s+([a-zA-Z_]\w*)\s*(?:<(?:[^<>{]|<[^<>{]*>)*>)?\s*\(\s*(\)|[a-zA-Z_]\w*)")
CALL_KEY = re.compile(r"\.([a-zA-Z_]\w*)\(\s*(\)|[a-zA-Z_]\w*\s*:)?")
TYPE_OPENER = re.compile(r"\b(struct|class|enum|extension|protocol|actor)\s+[A-Z]")
EXTENSION_OPENER = re.compile(r"(?:^|\s)extension\s+[A-Z]")
MEMBER_USE = re.compile(r"\.([a-zA-Z_]\w*)\b")

def member_declarations(text):
    """(name, in_extension) for every member-level declaration of `text` (stripped source): a
    `func`/`var`/`let` or enum case whose innermost enclosing brace opens a type or an extension."""
    found = []
    stack = []  # per open brace: "extension", "type" or None
    last = 0
    for match in re.finditer(r"[{}]", text):
        segment = text[last:match.start()]
        kind = stack[-1] if stack else None
        if kind:
            for declared in FUNC_KEY.finditer(segment):
                label = declared.group(2)
                found.append((f"{declared.group(1)}({'' if label == ')' else label + ':'}", kind == "extension"))
            for declared in MEMBER.finditer(segment):
                if declared.group(1):
                    found.append((declared.group(1), kind == "extension"))
                elif kind == "type":
                    # `case a, b(x: Int)`: the names before each argument list.
                    body = re.sub(r"\([^)]*\)", "", declared.group(2)).split("\n", 1)[0]
                    for name in re.findall(r"(?:^|,)\s*([a-zA-Z_]\w*)", body):
                        found.append((name, False))
        if match.group() == "{":
            header = re.split(r"[;{}]", text[:match.start()])[-1]
            if TYPE_OPENER.search(header) and not re.search(r"\b(func|init|subscript|var|let)\b", header):
                stack.append("extension" if EXTENSION_OPENER.search(header) else "type")
            else:
                stack.append(None)
        elif stack:
            stack.pop()
        last = match.end()
    return found

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
    member_folders, extension_members = defaultdict(set), defaultdict(set)
    for folder, path in files():
        text = strip(open(path, encoding="utf-8").read())
        sources[path] = (folder, text)
        for name in DECL.findall(text):
            if name in STANDARD:
                continue
            owner[name] = None if owner.get(name, folder) != folder else folder
        for name, in_extension in member_declarations(text):
            member_folders[name].add(folder)
            if in_extension:
                extension_members[name].add(folder)
    # An extension's member is its folder's when no other folder declares a member of that name.
    member_owner = {name: next(iter(folders)) for name, folders in extension_members.items()
                    if name.split("(")[0] not in STANDARD_MEMBERS and len(member_folders[name]) == 1}
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
            uses = [(name, owner.get(name)) for name in set(IDENT.findall(line))]
            uses += [(name, member_owner.get(name)) for name in set(MEMBER_USE.findall(line))]
            for name, label in set(CALL_KEY.findall(line)):
                key = f"{name}({'' if label == ')' else (label.rstrip(' :') + ':') if label else '_:'}"
                uses.append((key, member_owner.get(key)))
            for name, other in uses:
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
    print(f"layers: {total} uses of a later folder's types or extension members" if total
          else "layers: every folder uses only the folders before it (types and extension members)")
    return 1 if total else 0

if __name__ == "__main__":
    sys.exit(main())
