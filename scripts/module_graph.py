#!/usr/bin/env python3
"""Prints the module graph of a Rust crate's `src/` (which file uses which) and its import cycles.

A file uses another when its code (not its comments or strings) names a path into it:
`use crate::a::b`, `crate::a::b::f()`, `super::x`, `self::x`, a child module `child::f()`, or a
name brought in by `use` (`use crate::room; room::actor::Room`). A path leads to the deepest module
file it names, so `crate::room::Room` is an edge to `room/mod.rs` and `crate::room::actor::Room` one
to `room/actor.rs`. `mod x;` declarations are not edges: declaring a child is not depending on it.
`main.rs` is its own crate (it reaches the library by its name) and is left out.

A folder is a file's first path component below `src/`, with `lobby.rs` and `lobby/` one folder; a
cycle that spans more than one folder means two layers know each other, and makes the exit status 1;
so does, for `server/src`, an import from a layer to a higher one (`LAYERS`, highest first), or of
the several-nodes implementation (`topology/cluster/`) from outside `topology/`.
"""

import argparse
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS_ROOTS = {"crate", "super", "self"}


def strip_code(text):
    """The text with comments, strings and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
            out.append(" ")
            continue
        raw = re.match(r'b?r(#*)"', text[i:i + 300]) if c in "rb" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + raw.group(1)
            j = text.find(end, i + raw.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
            continue
        if c == "'":
            char = re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12])
            if char:
                out.append("' '")
                i += char.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def module_files(src):
    """Module path (tuple) to file path relative to `src`, for every module file of the library."""
    modules = {}
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, name), src)
            if rel == "main.rs" or rel.startswith("bin" + os.sep):
                continue
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib"):
                parts = parts[:-1]
            modules[tuple(parts)] = rel
    return modules


def expand_use(tree):
    """`a::{b, c::{d as e}}` to [(['a','b'], 'b'), (['a','c','d'], 'e')]: path and its local name."""
    # `x as y` becomes `x@y` before the blanks go, so a name containing "as" stays whole.
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree))
    results = []

    def walk(prefix, text):
        depth, start, items = 0, 0, []
        for k, ch in enumerate(text):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(text[start:k])
                start = k + 1
        items.append(text[start:])
        for item in filter(None, items):
            brace = item.find("{")
            if brace >= 0 and item.endswith("}"):
                head = [p for p in item[:brace].split("::") if p]
                walk(prefix + head, item[brace + 1:-1])
                continue
            alias = None
            if "@" in item:
                item, alias = item.split("@", 1)
            path = prefix + [p for p in item.split("::") if p]
            if path and path[-1] == "*":
                results.append((path[:-1], None))
            elif path and path[-1] == "self":
                results.append((path[:-1], alias or (path[-2] if len(path) > 1 else None)))
            elif path:
                results.append((path, alias or path[-1]))

    walk([], tree)
    return results


class Graph:
    def __init__(self, src):
        self.modules = module_files(src)
        self.src = src
        self.edges = {rel: set() for rel in self.modules.values()}

    def resolve(self, current, path):
        """The absolute module path of `path` seen from module `current`, or None if external."""
        if not path:
            return None
        if path[0] == "crate":
            return list(path[1:])
        if path[0] in ("super", "self"):
            base = list(current)
            rest = list(path)
            while rest and rest[0] in ("super", "self"):
                if rest.pop(0) == "super":
                    if not base:
                        return None
                    base.pop()
            return base + rest
        return None

    def deepest(self, absolute):
        for k in range(len(absolute), 0, -1):
            rel = self.modules.get(tuple(absolute[:k]))
            if rel is not None:
                return rel
        return self.modules.get(())

    def scan(self, module, rel):
        with open(os.path.join(self.src, rel), encoding="utf-8") as f:
            code = strip_code(f.read())
        edges = self.edges[rel]

        def add(absolute):
            if absolute is None:
                return
            target = self.deepest(absolute)
            if target and target != rel:
                edges.add(target)

        # Inline modules (`mod tests { … }`): track them so `super::` resolves from inside.
        stack = []  # (name, brace depth at which it closes)
        depth = 0
        aliases_by_scope = [{}]
        tokens = re.finditer(
            r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{|\buse\s+([^;]+);|[{}]|"
            r"(?<![A-Za-z0-9_:])((?:[A-Za-z_][A-Za-z0-9_]*::)+[A-Za-z_*][A-Za-z0-9_]*)",
            code,
        )
        for m in tokens:
            current = tuple(module) + tuple(name for name, _ in stack)
            if m.group(1):
                depth += 1
                stack.append((m.group(1), depth))
                aliases_by_scope.append({})
                continue
            text = m.group(0)
            if text == "{":
                depth += 1
                continue
            if text == "}":
                if stack and stack[-1][1] == depth:
                    stack.pop()
                    aliases_by_scope.pop()
                depth -= 1
                continue
            if m.group(2):
                for path, local in expand_use(m.group(2)):
                    absolute = self.absolute(current, path, aliases_by_scope)
                    add(absolute)
                    if absolute is not None and local and local != "_":
                        aliases_by_scope[-1][local] = absolute
                continue
            path = m.group(3).split("::")
            add(self.absolute(current, path, aliases_by_scope))

    def absolute(self, current, path, aliases_by_scope):
        if path[0] in KEYWORDS_ROOTS:
            return self.resolve(current, path)
        for scope in reversed(aliases_by_scope):
            if path[0] in scope:
                return scope[path[0]] + path[1:]
        if tuple(current) + (path[0],) in self.modules:
            return list(current) + path
        return None

    def build(self):
        for module, rel in self.modules.items():
            self.scan(module, rel)
        return self


def cycles(edges):
    """Strongly connected components with more than one file (Tarjan), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


# The layers of server/src, highest first (docs/server-layout.md): a file may use its own
# layer and the layers after it, never one before it. `lib.rs` and `main.rs` stand above all.
LAYERS = ["gateway", "app", "accounts", "competition", "topology", "persist", "lobby", "seat_bots", "room", "base"]


def upward_edges(edges):
    """Every edge from a layer to a layer above it, as (file, file it uses)."""
    out = []
    for rel in sorted(edges):
        for target in sorted(edges[rel]):
            a, b = folder(rel), folder(target)
            if a in LAYERS and b in LAYERS and LAYERS.index(b) < LAYERS.index(a):
                out.append((rel, target))
    return out


# The several-nodes implementation: only its own folder (the topology) may name it.
HIDDEN = ("topology/cluster/", "topology")


def hidden_edges(edges):
    """Every edge into the several-nodes implementation from outside the topology."""
    inner, owner = HIDDEN
    return [
        (rel, target)
        for rel in sorted(edges)
        for target in sorted(edges[rel])
        if target.startswith(inner) and folder(rel) != owner
    ]


def folder(rel):
    first = rel.split(os.sep)[0]
    return first[:-3] if first.endswith(".rs") else first


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", nargs="?", default="server/src")
    parser.add_argument("--cycles-only", action="store_true", help="print only the cycles")
    args = parser.parse_args()
    graph = Graph(args.src).build()
    if not args.cycles_only:
        print(f"# module graph of {args.src}: file -> files it uses")
        for rel in sorted(graph.edges):
            targets = ", ".join(sorted(graph.edges[rel])) or "-"
            print(f"{rel} -> {targets}")
        print()
    found = cycles(graph.edges)
    crossing = 0
    if not found:
        print("no import cycles")
    for component in found:
        folders = sorted({folder(rel) for rel in component})
        spans = len(folders) > 1
        crossing += spans
        kind = "CROSSES FOLDERS " + ", ".join(folders) if spans else "inside " + folders[0]
        print(f"cycle of {len(component)} files ({kind}): {' '.join(component)}")
    upward = upward_edges(graph.edges) if args.src == "server/src" else []
    for rel, target in upward:
        print(f"UPWARD: {rel} -> {target} ({folder(target)} is a layer above {folder(rel)})")
    hidden = hidden_edges(graph.edges) if args.src == "server/src" else []
    for rel, target in hidden:
        print(f"HIDDEN: {rel} -> {target} (only topology/ may name the several-nodes implementation)")
    if crossing:
        print(f"{crossing} import cycle(s) span more than one folder of {args.src}", file=sys.stderr)
    if upward:
        print(f"{len(upward)} import(s) run from a lower layer to a higher one", file=sys.stderr)
    if hidden:
        print(f"{len(hidden)} import(s) of topology/cluster/ from outside topology/", file=sys.stderr)
    return 1 if crossing or upward or hidden else 0


if __name__ == "__main__":
    sys.exit(main())
