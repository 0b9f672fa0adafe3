#!/usr/bin/env python3
"""The library's public types, counted against a ceiling (CONTRIBUTING.md, "What is API").

Reads Sources/TxFold/**/*.swift and lists every type a client that writes plain `import TxFold`
can name: a `struct`, `class`, `actor`, `enum`, `protocol` or `typealias` whose access is `public`
or `open` (written, or given by a `public extension`), inside a scope that is itself public (a
nested type counts, under its full name). Not counted: `package`, `internal` and
`@usableFromInline` declarations, and anything marked `@_spi(…)` or declared in an `@_spi(…)`
extension (a client sees it only with `@_spi(…) import TxFold`).

Prints the list and the count, and exits 1 when the count is above CEILING. It reads the sources
only (no build, well under a second); `--symbol-graph` also compares the list with what
`swift package dump-symbol-graph --minimum-access-level public` extracts (a debug build and about a
minute more), which checks this scan.

  python3 Scripts/public-api.py                 # the list, the count, the check
  python3 Scripts/public-api.py --symbol-graph  # and the same list from the compiler
"""

import json
import os
import re
import subprocess
import sys

# At most this many public types (issue 25 asked for 70; CONTRIBUTING.md, "What is API", lists the
# 72 and why: `AccountList` and `PerAccountReport` decode the per-account list and the per-account
# json documents, which no other type could). Lower it as types go; raise it only with a reason
# written there.
CEILING = 72

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARY = os.path.join(ROOT, "Sources", "TxFold")

TYPE_KEYWORDS = {"struct", "class", "actor", "enum", "protocol", "typealias"}
ACCESS = {"open", "public", "package", "internal", "fileprivate", "private"}
# Words that may stand between the attributes and the keyword of a declaration.
MODIFIERS = ACCESS | {
    "final", "indirect", "nonisolated", "static", "dynamic", "mutating", "nonmutating", "override",
    "required", "convenience", "lazy", "weak", "unowned", "optional", "consuming", "borrowing",
}


def tokens(text):
    """Identifiers, attributes (`@name`, with their argument text attached), `{`, `}`, `(`, `)`,
    `.`, and other punctuation, with comments and string literals left out."""
    i, n = 0, len(text)
    out = []
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            i = skip_string(text, i)
            out.append('""')
        elif c == "@":
            m = re.match(r"@[A-Za-z_][A-Za-z0-9_]*", text[i:])
            if not m:
                i += 1
                continue
            name = m.group(0)
            i += len(name)
            if i < n and text[i] == "(":  # the attribute's arguments, such as @_spi(Benchmarks)
                depth, j = 0, i
                while j < n:
                    if text[j] == "(":
                        depth += 1
                    elif text[j] == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                name += text[i : j + 1]
                i = j + 1
            out.append(name)
        elif c.isalpha() or c == "_" or c == "`":
            m = re.match(r"`?[A-Za-z_][A-Za-z0-9_]*`?", text[i:])
            if not m:
                i += 1
                continue
            out.append(m.group(0).strip("`"))
            i += len(m.group(0))
        elif c.isdigit():
            m = re.match(r"[0-9][0-9A-Za-z_.]*", text[i:])
            out.append("0")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return out


def skip_string(text, i):
    """The index after the string literal that starts at `i` (plain, multi-line or raw, with
    interpolations, which may hold strings of their own)."""
    hashes = 0
    while text[i] == "#":
        hashes, i = hashes + 1, i + 1
    multi = text.startswith('"""', i)
    i += 3 if multi else 1
    close = ('"""' if multi else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    n = len(text)
    while i < n:
        if text.startswith(escape, i):
            i += len(escape)
            if i < n and text[i] == "(":  # an interpolation: skip to its closing parenthesis
                depth = 0
                while i < n:
                    if text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
                        i = skip_string(text, i)
                        continue
                    if text[i] == "(":
                        depth += 1
                    elif text[i] == ")":
                        depth -= 1
                        if depth == 0:
                            i += 1
                            break
                    i += 1
            else:
                i += 1
        elif text.startswith(close, i):
            return i + len(close)
        else:
            i += 1
    return n


class Scope:
    def __init__(self, kind, name, access, spi, parent):
        self.kind = kind  # "file", "type" or "extension"
        self.name = name  # the type's full name (for an extension: the extended type's)
        self.access = access  # written access, or None
        self.spi = spi
        self.parent = parent


def declarations(path):
    """(kind, full name, written access, spi, enclosing scope) for every type declared in `path`,
    and (extended type, written access, spi) for every extension."""
    with open(path, encoding="utf-8") as f:
        toks = tokens(f.read())
    found = []
    stack = [Scope("file", "", None, False, None)]
    pending = None  # the scope the next `{` opens, once a type or extension header was read
    depth_marks = []  # for each `{`: the scope it opened, or None for a block that is no declaration
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "{":
            depth_marks.append(pending)
            if pending is not None:
                stack.append(pending)
            pending = None
        elif t == "}":
            if depth_marks:
                opened = depth_marks.pop()
                if opened is not None:
                    stack.pop()
        elif (t in TYPE_KEYWORDS or t == "extension") and i + 1 < len(toks) and is_declaration(toks, i):
            mods = modifiers(toks, i)
            access = next((m for m in mods if m in ACCESS), None)
            spi = any(m.startswith("@_spi") for m in mods)
            name, j = type_name(toks, i + 1)
            scope = stack[-1]
            inside_code = any(mark is None for mark in depth_marks)  # a type inside a function body
            if t == "extension":
                if not inside_code:
                    found.append(("extension", name, access, spi, scope))
                    pending = Scope("extension", name, access, spi, scope)
            else:
                full = name if scope.kind == "file" else scope.name + "." + name
                if not inside_code:
                    found.append((t, full, access, spi, scope))
                if t != "typealias":
                    pending = Scope("type", full, access, spi, scope)
            i = j
            continue
        i += 1
    return found


def is_declaration(toks, i):
    """Whether the keyword at `i` starts a declaration (not `class func`, `.self`, `any protocol`…)."""
    t, nxt = toks[i], toks[i + 1]
    if i > 0 and toks[i - 1] == ".":
        return False
    if not re.match(r"[A-Za-z_]", nxt):
        return False
    if t == "class" and nxt in MODIFIERS | {"func", "var", "let", "subscript", "init", "deinit"}:
        return False
    return True


def modifiers(toks, i):
    """The attributes and modifiers written before the keyword at `i`."""
    mods = []
    j = i - 1
    while j >= 0 and (toks[j] in MODIFIERS or toks[j].startswith("@")):
        mods.append(toks[j])
        j -= 1
    return mods


def type_name(toks, i):
    """A (possibly dotted) type name starting at `i`, and the index after it."""
    parts = [toks[i]]
    i += 1
    while i + 1 < len(toks) and toks[i] == "." and re.match(r"[A-Za-z_]", toks[i + 1]):
        parts.append(toks[i + 1])
        i += 2
    return ".".join(parts), i


def public_types():
    decls = []
    for folder, _, files in os.walk(LIBRARY):
        for name in sorted(files):
            if name.endswith(".swift"):
                decls.extend(declarations(os.path.join(folder, name)))
    types = {d[1]: d for d in decls if d[0] != "extension"}

    def access_in(scope):
        """The access a declaration without a written one gets inside `scope`, and whether that
        scope is SPI."""
        if scope.kind == "extension":
            return scope.access, scope.spi
        return None, scope.spi

    def visible(full_name, seen=()):
        """Whether the type named `full_name` is public API, not SPI."""
        if full_name in seen:
            return False
        decl = types.get(full_name)
        if decl is None:
            # A type of another module (an extension of `Array`, say): public there.
            return "." not in full_name or visible(full_name.rsplit(".", 1)[0], seen)
        kind, _, access, spi, scope = decl
        default_access, scope_spi = access_in(scope)
        if spi or scope_spi:
            return False
        effective = access or default_access or "internal"
        if effective not in ("public", "open"):
            return False
        return scope_visible(scope, seen + (full_name,))

    def scope_visible(scope, seen):
        while scope is not None and scope.kind != "file":
            if scope.spi:
                return False
            if scope.kind == "extension":
                return visible(scope.name, seen)
            if not visible(scope.name, seen):
                return False
            scope = scope.parent
        return True

    names = set()
    for kind, full, access, spi, scope in decls:
        if kind == "extension":
            continue
        default_access, scope_spi = access_in(scope)
        effective = access or default_access or "internal"
        if spi or scope_spi or effective not in ("public", "open"):
            continue
        if not scope_visible(scope, (full,)):
            continue
        # A type declared in an extension is named under the extended type.
        names.add(full)
    return sorted(names)


def symbol_graph_types():
    """The public types `swift package dump-symbol-graph` extracts for the library."""
    run = subprocess.run(
        ["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"],
        cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stdout + run.stderr)
        sys.exit(2)
    folder = run.stdout.strip().splitlines()[-1].split(" to ", 1)[-1].strip()
    with open(os.path.join(folder, "TxFold.symbols.json"), encoding="utf-8") as f:
        graph = json.load(f)
    kinds = {"swift." + k for k in TYPE_KEYWORDS}
    return sorted(
        ".".join(s["pathComponents"]) for s in graph["symbols"]
        if s["kind"]["identifier"] in kinds and not s.get("spi", False))


def main():
    names = public_types()
    for name in names:
        print(name)
    print(f"{len(names)} public types (ceiling {CEILING})")
    status = 0
    if "--symbol-graph" in sys.argv[1:]:
        graph = symbol_graph_types()
        if graph != names:
            print("the symbol graph disagrees with this scan:")
            for name in sorted(set(graph) - set(names)):
                print(f"  only in the symbol graph: {name}")
            for name in sorted(set(names) - set(graph)):
                print(f"  only in this scan: {name}")
            status = 2
        else:
            print("the symbol graph lists the same types")
    if len(names) > CEILING:
        print(f"FAIL: {len(names)} public types, more than the ceiling of {CEILING}. Make the new ones "
              "`package` (or `@_spi(Benchmarks) public` for what only the Benchmarks package needs), or merge "
              "them into an existing type; see CONTRIBUTING.md, \"What is API\".")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
