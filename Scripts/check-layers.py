#!/usr/bin/env python3
"""Prints the folder dependency graph of Sources/DependencyKit and fails when an edge against the
declared layer order appears that is not in KNOWN_BACK_EDGES.

The layers, bottom first, are declared in LAYERS below and drawn in Docs/Architecture.md. A folder
may use its own layer and the layers below it, never one above. "Uses" is read from the source: a
file uses a folder when it names a declaration made there — a type, a top-level function or
constant, or a member declared in an extension or type body — that no other folder declares. Names
declared in several folders (`current`, `value`) are too common to attribute and are left out, as are
comments and string literals. That is a heuristic, so the script also prints, for every edge, the
names that made it, for a reviewer to check.

KNOWN_BACK_EDGES is empty: no edge points up the layers, and a change that adds a use of a higher folder
from a lower one fails, naming the edge and the names that made it. (The list stays, so that an edge
can be named with its reason while it is being removed; it must be empty on main.)

Usage: Scripts/check-layers.py [--graph] [--dot] [--self-test]
  --graph      print every edge with the names that made it (the default prints the edges only)
  --dot        print the graph in Graphviz DOT
  --self-test  copy the engine, plant a back edge (Internal/ naming Injector) and check that the
               check fails on it, then that the untouched engine passes
"""

import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINE = ROOT / "Sources" / "DependencyKit"

# Bottom first. A folder may use folders of its own index or lower.
LAYERS = [
    ["Internal"],
    ["Instances"],
    ["Resolution"],
    ["Lifetimes"],
    ["Injection"],
    ["Diagnostics"],
    ["Modules", "Registry"],
]

# The edges that point up the layers, with their reasons: none.
KNOWN_BACK_EDGES: dict = {}

DECLARATION = re.compile(
    r"^(?P<indent>[ ]*)(?:@[\w()\"., :]+\s+)*(?:(?:public|package|internal|private|fileprivate|open|final|static|"
    r"class|override|mutating|nonisolated|indirect|convenience|required|lazy|weak|unowned|dynamic)\s+)*"
    r"(?P<kind>class|struct|enum|protocol|actor|typealias|func|var|let|case)\s+(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
)
CDECL = re.compile(r'@_cdecl\("(?P<name>\w+)"\)')
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# Too short or too common to say which folder a use means.
IGNORED = {
    "init", "deinit", "description", "hash", "body", "name", "type", "lock", "unlock", "none", "some", "Error",
    "next", "record", "store", "base", "async", "entry", "insert", "append", "isEmpty", "read", "raw", "start",
    "stored", "kind", "rawValue", "text", "second", "made", "instance", "capacity", "slot", "binding", "kept",
    "owner", "outer", "root", "previous", "storage", "cycle", "factory", "registry", "configurator", "describe",
    "generation", "matches", "load", "depth", "step", "implementer", "succeeded", "broadcast", "destroy",
    "address", "keep", "shortcut", "value", "current", "count", "parent", "key", "container", "first", "last",
    "message", "result",
}


def strip(source: str) -> str:
    """Removes comments and string literals, keeping line structure."""
    out = []
    i = 0
    n = len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3)
            out.append("\n" * source.count("\n", i, n if j < 0 else j))
            i = n if j < 0 else j + 3
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] != '"' and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def folders() -> dict[str, list[pathlib.Path]]:
    result: dict[str, list[pathlib.Path]] = collections.defaultdict(list)
    for path in sorted(ENGINE.rglob("*.swift")):
        folder = path.relative_to(ENGINE).parts[0]
        result[folder if folder.endswith(".swift") is False else "."].append(path)
    return result


def main() -> int:
    files = folders()
    code = {folder: [strip(p.read_text()) for p in paths] for folder, paths in files.items()}
    declared: dict[str, set[str]] = collections.defaultdict(set)
    for folder, sources in code.items():
        for source in sources:
            for line in source.splitlines():
                match = DECLARATION.match(line)
                # Top level and one level in (members of a type or an extension), not locals.
                if match and len(match.group("indent")) <= 8:
                    declared[match.group("name")].add(folder)
    for folder, paths in files.items():
        for path in paths:
            for match in CDECL.finditer(path.read_text()):
                declared[match.group("name")].add(folder)
    owner = {name: next(iter(where)) for name, where in declared.items() if len(where) == 1 and name not in IGNORED}
    edges: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for folder, sources in code.items():
        for source in sources:
            for token in IDENTIFIER.findall(source):
                target = owner.get(token)
                if target and target != folder:
                    edges[(folder, target)].add(token)
    layer_of = {folder: index for index, layer in enumerate(LAYERS) for folder in layer}
    unknown = sorted(set(files) - set(layer_of))
    problems = []
    if unknown:
        problems.append(f"folders missing from LAYERS: {', '.join(unknown)}")
    back_edges = {
        edge for edge in edges if edge[0] in layer_of and edge[1] in layer_of and layer_of[edge[1]] > layer_of[edge[0]]
    }
    for source, target in sorted(back_edges - set(KNOWN_BACK_EDGES)):
        names = ", ".join(sorted(edges[(source, target)])[:8])
        problems.append(f"new back edge: {source} -> {target} points up the layers ({names})")
    for source, target in sorted(set(KNOWN_BACK_EDGES) - back_edges):
        problems.append(f"{source} -> {target} is gone: remove it from KNOWN_BACK_EDGES")

    if "--dot" in sys.argv:
        print("digraph DependencyKit {\n  rankdir=BT;")
        for source, target in sorted(edges):
            print(f'  "{source}" -> "{target}";')
        print("}")
    else:
        print("Layers, bottom first: " + " < ".join("/".join(layer) for layer in LAYERS))
        for (source, target), names in sorted(edges.items()):
            detail = f"  ({', '.join(sorted(names))})" if "--graph" in sys.argv else ""
            mark = "  [up: known]" if (source, target) in back_edges else ""
            print(f"  {source} -> {target}{mark}{detail}")
        print(f"{len(edges)} edges, {len(back_edges)} pointing up (known: {len(KNOWN_BACK_EDGES)})")
    for problem in problems:
        print(f"check-layers: {problem}", file=sys.stderr)
    return 1 if problems else 0


def self_test() -> int:
    """Plants a back edge in a copy of the engine and checks that the check catches it."""
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as work:
        copy = pathlib.Path(work) / "Sources" / "DependencyKit"
        shutil.copytree(ENGINE, copy)
        shutil.copytree(ROOT / "Scripts", pathlib.Path(work) / "Scripts")
        planted = copy / "Internal" / "PlantedBackEdge.swift"
        planted.write_text("func plantedBackEdge(_ planted: Injector<Int>) {}\n")
        script = pathlib.Path(work) / "Scripts" / "check-layers.py"
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
        if run.returncode == 0 or "new back edge: Internal -> Injection" not in run.stderr:
            print("check-layers self-test: a planted back edge was not caught", file=sys.stderr)
            print(run.stdout + run.stderr, file=sys.stderr)
            return 1
        print("check-layers self-test: the planted edge fails the check:")
        print("  " + run.stderr.strip())
        planted.unlink()
        if subprocess.run([sys.executable, str(script)], capture_output=True).returncode != 0:
            print("check-layers self-test: the engine without the planted edge fails", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        sys.exit(self_test() or main())
    sys.exit(main())
