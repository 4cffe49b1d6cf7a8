#!/usr/bin/env python3
"""Keeps the contributors' maps true: CONTRIBUTING.md's map of Sources/DependencyKit/ and Docs/.

Every file the map in CONTRIBUTING.md names must exist, and every Swift file of the engine must
appear in the map, so a file moved, renamed or added without its line in the map fails CI. Every
repository path quoted in Docs/*.md (`Sources/…`, `Tests/…`, `Benchmarks/…`, `Examples/…`,
`Scripts/…`, `IntegrationTests/…`) must exist too.
Usage: python3 Scripts/check-contributing-map.py   (from anywhere; exits non-zero on a mismatch)
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
engine = root / "Sources" / "DependencyKit"
text = (root / "CONTRIBUTING.md").read_text()

start = text.index("The map of `Sources/DependencyKit/`")
end = text.index("The C side of the hot path", start)
section = text[start:end]

named = set()
problems = []
for row in section.splitlines():
    if not row.lstrip().startswith("|"):
        continue
    cell = row.rstrip().rstrip("|").split("|")[-1]
    for path in re.findall(r"`([^`]+)`", cell):
        target = engine / path
        if not target.exists():
            problems.append(f"CONTRIBUTING.md names `{path}`, which is not in Sources/DependencyKit/")
        elif target.is_dir():
            named.update(p.relative_to(engine).as_posix() for p in target.rglob("*.swift"))
        else:
            named.add(path)

for source in sorted(engine.rglob("*.swift")):
    relative = source.relative_to(engine).as_posix()
    if relative not in named:
        problems.append(f"{relative} is missing from CONTRIBUTING.md's map of Sources/DependencyKit/")

for doc in sorted((root / "Docs").glob("*.md")):
    quoted = re.findall(r"`((?:Sources|Tests|Benchmarks|Examples|Scripts|IntegrationTests)/[^`\s*]+)", doc.read_text())
    for path in sorted(set(quoted)):
        # A command quotes its script first; build folders appear only once something is built.
        if "/.build" in path:
            continue
        if not (root / path).exists():
            problems.append(f"Docs/{doc.name} names `{path}`, which does not exist")

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"CONTRIBUTING.md's map names all {len(named)} files of Sources/DependencyKit/, and only those.")
