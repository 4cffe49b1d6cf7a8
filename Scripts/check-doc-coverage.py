#!/usr/bin/env python3
"""Fails when a public symbol declared in Sources/ has no /// documentation comment.

Reads the symbol graphs that `swift build -Xswiftc -emit-symbol-graph` wrote. A symbol counts
when it is `public` or `open` and its declaration is in this repository's Sources/ (so
compiler-synthesised members such as `Equatable`'s `!=` are not counted). Its own doc comment
must have a non-empty first line. (A member that one of our modules adds to another's type, such as
`DependencyInjector.dependencies`, carries the comment written on its declaration.)

Usage: Scripts/check-doc-coverage.py SYMBOL_GRAPH_DIR MODULE...
"""

import json
import pathlib
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    graphs, modules = pathlib.Path(sys.argv[1]), set(sys.argv[2:])
    missing, counted, seen = [], 0, set()
    for path in sorted(graphs.glob("*.symbols.json")):
        module = path.name.split(".symbols.json")[0].split("@")[0]
        if module not in modules:
            continue
        for symbol in json.loads(path.read_text())["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension":
                continue  # an extension block; its members are checked one by one
            uri = symbol.get("location", {}).get("uri")
            if not uri:
                continue
            file = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(uri).path))
            if SOURCES not in file.parents:
                continue
            identifier = symbol["identifier"]["precise"]
            if identifier in seen:
                continue
            seen.add(identifier)
            counted += 1
            comment = symbol.get("docComment")
            lines = comment.get("lines", []) if comment else []
            if not lines or not lines[0]["text"].strip():
                position = symbol["location"].get("position", {}).get("line", -1) + 1
                name = ".".join(symbol["pathComponents"])
                missing.append(f"{file.relative_to(ROOT)}:{position}: {module}.{name} has no /// summary")
    for line in sorted(missing):
        print(line, file=sys.stderr)
    if missing:
        print(f"check-doc-coverage: {len(missing)} of {counted} public symbols undocumented", file=sys.stderr)
        return 1
    if counted == 0:
        print("check-doc-coverage: no public symbols found; were the symbol graphs emitted?", file=sys.stderr)
        return 1
    print(f"check-doc-coverage: all {counted} public symbols documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
