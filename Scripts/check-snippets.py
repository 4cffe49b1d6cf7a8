#!/usr/bin/env python3
"""Fails when a code sample in the documentation is not the code that CI compiles.

Every ```swift block in a DocC article must be preceded by one of these HTML comments
(invisible in the rendered page):

    <!-- snippet: NAME -->        the block is the snippet NAME, verbatim
    <!-- not-compiled: REASON -->  the block is not Swift that CI can build (a library that is not
                                   available to CI, a manifest excerpt)

A snippet is a region of a Swift file under the snippet roots, between

    // snippet: NAME
    ...
    // end-snippet

Its lines are compared after removing their common indentation, so a snippet may sit inside
a type or a test function. Lines ending in `// snippet.hide` are left out of the comparison,
for set-up that the article does not need to show.

Usage: Scripts/check-snippets.py [--list] [--fix]

--fix rewrites every article block that differs from its snippet with the snippet's code (the
compiled code wins); review the diff before committing.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTICLE_ROOTS = sorted(ROOT.glob("Sources/*/*.docc")) + [ROOT / "README.md"]
SNIPPET_ROOTS = [
    ROOT / "Tests" / "DocumentationSnippets",
    ROOT / "IntegrationTests" / "ConsumerCheck" / "Sources",
    ROOT / "IntegrationTests" / "ConsumerCheck" / "Tests",
    ROOT / "IntegrationTests" / "ReadmeCheck" / "Sources",
    ROOT / "IntegrationTests" / "ReadmeCheck" / "Tests",
    # The migration programs: the Swinject and swift-dependencies code the migration guides show is
    # compiled and tested there, beside its DependencyKit port.
    ROOT / "IntegrationTests" / "Migrations" / "Sources",
    ROOT / "IntegrationTests" / "Migrations" / "Tests",
    # The example server: the Server Apps article's middleware, container and tests, built against
    # Hummingbird by the Examples package.
    ROOT / "Examples" / "Sources",
    ROOT / "Examples" / "Tests",
]

START = re.compile(r"^\s*// snippet: ([A-Za-z0-9_.-]+)\s*$")
END = re.compile(r"^\s*// end-snippet\s*$")
HIDE = re.compile(r"// snippet\.hide\s*$")
MARKER = re.compile(r"^<!-- (snippet|not-compiled): (.+?) -->\s*$")


def dedent(lines):
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:].rstrip() for line in lines]


def strip_indent(line, indent):
    removable = len(line) - len(line.lstrip(" "))
    return line[min(indent, removable) :]


def collect_snippets(errors):
    snippets = {}
    for root in SNIPPET_ROOTS:
        for path in sorted(root.rglob("*.swift")):
            if ".build" in path.parts:
                continue
            name, body, start = None, [], 0
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if name is None:
                    match = START.match(line)
                    if match:
                        name, body, start = match.group(1), [], number
                    elif END.match(line):
                        errors.append(f"{path.relative_to(ROOT)}:{number}: end-snippet without a start")
                    continue
                if END.match(line):
                    if name in snippets:
                        errors.append(f"{path.relative_to(ROOT)}:{start}: snippet '{name}' is declared twice")
                    snippets[name] = (dedent(body), f"{path.relative_to(ROOT)}:{start}")
                    name = None
                elif START.match(line):
                    errors.append(f"{path.relative_to(ROOT)}:{number}: snippet inside snippet '{name}'")
                elif not HIDE.search(line):
                    body.append(line)
            if name is not None:
                errors.append(f"{path.relative_to(ROOT)}:{start}: snippet '{name}' has no end-snippet")
    return snippets


def check_articles(snippets, errors, fix=False):
    used, blocks = set(), 0
    for root in ARTICLE_ROOTS:
        for path in [root] if root.is_file() else sorted(root.rglob("*.md")):
            lines = path.read_text().splitlines()
            fixed = False
            index = 0
            while index < len(lines):
                line = lines[index]
                if not line.lstrip().startswith("```"):
                    index += 1
                    continue
                # A fence may be indented (inside a list item); its lines carry the same indent.
                indent = len(line) - len(line.lstrip())
                language = line.strip()[3:].strip()
                end = index + 1
                while end < len(lines) and not lines[end].lstrip().startswith("```"):
                    end += 1
                body = [strip_indent(text, indent).rstrip() for text in lines[index + 1 : end]]
                where = f"{path.relative_to(ROOT)}:{index + 1}"
                previous = index - 1
                while previous >= 0 and not lines[previous].strip():
                    previous -= 1
                marker = MARKER.match(lines[previous].strip()) if previous >= 0 else None
                if language.lower() == "swift":
                    blocks += 1
                    if marker is None:
                        errors.append(
                            f"{where}: a ```swift block needs <!-- snippet: NAME --> or "
                            "<!-- not-compiled: REASON --> on the line before it"
                        )
                    elif marker.group(1) == "snippet":
                        name = marker.group(2).strip()
                        used.add(name)
                        if name not in snippets:
                            errors.append(f"{where}: no snippet named '{name}' in the snippet sources")
                        elif snippets[name][0] != body and fix:
                            pad = " " * indent
                            lines[index + 1 : end] = [pad + text if text else "" for text in snippets[name][0]]
                            end = index + 1 + len(snippets[name][0])
                            fixed = True
                        elif snippets[name][0] != body:
                            expected, origin = snippets[name]
                            errors.append(f"{where}: differs from snippet '{name}' at {origin}")
                            errors.extend(diff(expected, body))
                elif marker is not None and marker.group(1) == "snippet":
                    errors.append(f"{where}: a snippet marker must precede a ```swift block")
                index = end + 1
            if fixed:
                path.write_text("\n".join(lines) + "\n")
                print(f"check-snippets: rewrote {path.relative_to(ROOT)}")
    return used, blocks


def diff(expected, actual):
    import difflib

    return [
        "    " + line
        for line in difflib.unified_diff(expected, actual, "snippet source", "article", lineterm="", n=1)
    ]


def main():
    errors = []
    snippets = collect_snippets(errors)
    used, blocks = check_articles(snippets, errors, fix="--fix" in sys.argv)
    if "--list" in sys.argv:
        for name in sorted(snippets):
            print(f"{name:40} {snippets[name][1]}{'' if name in used else '  (unused)'}")
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        problems = sum(1 for error in errors if not error.startswith("    "))
        print(f"check-snippets: {problems} problem(s)", file=sys.stderr)
        return 1
    print(f"check-snippets: {blocks} Swift blocks checked, {len(used)} snippets matched")
    return 0


if __name__ == "__main__":
    sys.exit(main())
