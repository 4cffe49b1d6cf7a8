#!/usr/bin/env python3
"""Renders a module's public API, dumped by `swift-api-digester -dump-sdk`, as sorted, stable text.

Usage: Scripts/public-api.py MODULE DUMP.json > Docs/API/MODULE.txt

One line per public (or open) declaration the module declares, its own and the members it adds
to other modules' types: the path, the kind, the name, the signature (parameter and result
types), generic constraints, conformances and superclass, and the attributes that change what a
caller may do (`open`, `final`, `static`, `throws`, `mutating`, `@discardableResult`, a default
argument...). `package` and internal declarations, imports, file paths and tool arguments are left
out, and the lines are sorted, so the text changes only when the public API does. Used by
Scripts/check-public-api.sh.
"""

import json
import sys

TYPE_KINDS = {"TypeNominal", "TypeFunc", "TypeNameAlias"}
SKIPPED = {"Import"}
# Attributes that do not change what a caller may write (they describe the build, not the API).
IGNORED_ATTRIBUTES = {"UsableFromInline", "Inlinable", "Frozen", "FixedLayout", "Preconcurrency"}


def type_text(node):
    return node.get("printedName", "?")


def describe(node):
    kind = node.get("declKind") or node.get("kind")
    name = node.get("printedName", node.get("name", "?"))
    parts = [kind, name]
    types = [c for c in node.get("children", []) if c.get("kind") in TYPE_KINDS]
    if node.get("kind") in ("Function", "Constructor", "Subscript") and types:
        result, params = types[0], types[1:]
        rendered = []
        for param in params:
            text = type_text(param)
            if param.get("hasDefaultArg"):
                text += " = default"
            if param.get("paramValueOwnership"):
                text = f"{param['paramValueOwnership'].lower()} {text}"
            rendered.append(text)
        parts.append(f"({', '.join(rendered)}) -> {type_text(result)}")
    elif node.get("kind") in ("Var", "TypeAlias", "AssociatedType") and types:
        parts.append(": " + type_text(types[0]))
    if node.get("genericSig"):
        parts.append(f"where {node['genericSig']}")
    traits = []
    if node.get("static"):
        traits.append("static")
    if node.get("isOpen"):
        traits.append("open")
    if node.get("throwing"):
        traits.append("throws")
    if node.get("funcSelfKind") and node["funcSelfKind"] != "NonMutating":
        traits.append(node["funcSelfKind"].lower())
    if node.get("isLet"):
        traits.append("let")
    if node.get("kind") == "Var" and not node.get("isLet"):
        accessors = sorted(a.get("accessorKind", a.get("printedName", "")) for a in node.get("accessors", []))
        if accessors:
            traits.append("accessors " + "/".join(accessors))
    if node.get("isEnumExhaustive"):
        traits.append("exhaustive")
    attributes = sorted(set(node.get("declAttributes", [])) - IGNORED_ATTRIBUTES)
    traits.extend(f"@{a}" for a in attributes)
    if node.get("superclassNames"):
        traits.append("inherits " + ", ".join(node["superclassNames"]))
    conformances = sorted(c.get("printedName", "?") for c in node.get("conformances", []))
    if conformances:
        traits.append("conforms " + ", ".join(conformances))
    if traits:
        parts.append("[" + "; ".join(traits) + "]")
    return " ".join(parts)


def lines_for(module, node, path, out):
    for child in node.get("children", []):
        kind = child.get("kind")
        if kind in SKIPPED or kind in TYPE_KINDS:
            continue
        if child.get("isInternal") or child.get("implicit"):
            continue
        name = child.get("printedName", child.get("name", "?"))
        ours = child.get("moduleName") == module
        child_path = f"{path}.{name}" if path else name
        if ours and not child.get("isExternal"):
            out.append(f"{path + ' · ' if path else ''}{describe(child)}")
        # Members another module's type gets from this module sit under that type's node.
        lines_for(module, child, child_path, out)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    module, dump = sys.argv[1], sys.argv[2]
    with open(dump) as f:
        root = json.load(f)["ABIRoot"]
    if root.get("name") == "NO_MODULE":
        print(f"public-api: swift-api-digester could not load {module}", file=sys.stderr)
        return 1
    out = []
    lines_for(module, root, "", out)
    for line in sorted(set(out)):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
