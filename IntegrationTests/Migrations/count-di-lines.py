#!/usr/bin/env python3
"""Counts the dependency-injection code of each program in this package, before and after the port.

Each program's code that differs between the two libraries sits in snippet regions named
`LIBRARY-PROGRAM-PART` (the regions the migration articles show): `swinject-` and `sd-` before,
`dk-` after; PART is `container` (registrations, keys, the container), `server` or `model` (the code
that reads dependencies) and `test-scope` (how a test replaces some of them). The domain, the same in
both versions, is not counted. A line counts when it holds code: blank lines, comments and lines
with only a closing brace or parenthesis are left out, so formatting does not move the numbers.

The migration articles quote these numbers in a table after `<!-- line-counts: PROGRAM -->`
(`<!-- line-counts: PROGRAM after-only -->` when the before column counts code that is not in this
package): one row per part in the order printed here, then an optional total. `--check` fails when a
quoted number differs from the count.

Usage: python3 IntegrationTests/Migrations/count-di-lines.py [--check]
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent
ARTICLES = ROOT.parent.parent / "Sources" / "DependencyKit" / "DependencyKit.docc" / "Articles"
ORDER = ["container", "server", "model", "test-scope"]
MARKER = re.compile(r"^<!-- line-counts: ([a-z]+)( after-only)? -->$")
START = re.compile(r"^\s*// snippet: ((swinject|sd|dk)-([a-z]+)-([a-z-]+))\s*$")
END = re.compile(r"^\s*// end-snippet\s*$")
LIBRARIES = {"swinject": "Swinject", "sd": "swift-dependencies", "dk": "DependencyKit"}


def counted(line):
    text = line.strip()
    return bool(text) and not text.startswith("//") and not re.fullmatch(r"[)}\]]+[,;]?", text)


def regions():
    found = {}
    for path in sorted(ROOT.glob("[ST]*/**/*.swift")):
        current = None
        for line in path.read_text().splitlines():
            match = START.match(line)
            if match:
                current = (match.group(3), match.group(4), match.group(2))
                found.setdefault(current, 0)
            elif END.match(line):
                current = None
            elif current and counted(line):
                found[current] += 1
    return found


def table(found):
    """Rows of (before, after) per program: one per part, then the total."""
    rows = {}
    for program, before in sorted({(program, library) for program, _, library in found if library != "dk"}):
        parts = sorted({part for p, part, _ in found if p == program}, key=ORDER.index)
        counts = [(part, found.get((program, part, before), 0), found.get((program, part, "dk"), 0)) for part in parts]
        counts.append(("total", sum(c[1] for c in counts), sum(c[2] for c in counts)))
        rows[program] = (LIBRARIES[before], counts)
    return rows


def check(rows):
    problems, checked = [], 0
    for article in sorted(ARTICLES.glob("*.md")):
        lines = article.read_text().splitlines()
        for index, line in enumerate(lines):
            match = MARKER.match(line.strip())
            if not match:
                continue
            program, after_only = match.group(1), bool(match.group(2))
            body = []  # the rows after the marker, the header and the separator
            for row in lines[index + 3 :]:
                if not row.startswith("|"):
                    break
                body.append(row)
            for (part, before, after), row in zip(rows[program][1], body):
                cells = [cell.strip() for cell in row.strip("|").split("|")]
                quoted = (None if after_only else cells[1], cells[2])
                expected = (None if after_only else str(before), str(after))
                if quoted != expected:
                    problems.append(f"{article.name}:{index + 1}: {program} {part} quotes {quoted}, counted {expected}")
            checked += 1
    return problems, checked


def main():
    rows = table(regions())
    print(f"{'program':8} {'part':11} {'before':>7} {'after':>6}")
    for program, (before, counts) in rows.items():
        for part, old, new in counts:
            print(f"{program:8} {part:11} {old:7} {new:6}" + (f"   ({before} -> DependencyKit)" if part == "total" else ""))
    if "--check" in sys.argv:
        problems, checked = check(rows)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems or not checked:
            print("count-di-lines: the articles' line counts differ from the code" if problems else "count-di-lines: no article quotes the counts", file=sys.stderr)
            sys.exit(1)
        print(f"count-di-lines: the {checked} tables in the migration articles match")


if __name__ == "__main__":
    main()
