#!/usr/bin/env bash
# Builds the DocC documentation with the toolchain's own `docc` (no plugin) and fails on any
# warning: an unresolved link, a bad parameter list, or a public symbol without a /// comment.
#
#   Scripts/build-docs.sh                   # writes .build-docs/DependencyKit.doccarchive
#   docc preview .build-docs/DependencyKit.docc --additional-symbol-graph-dir .build-docs/symbol-graphs
#
# Each library target carries its own catalog (Sources/<Module>/<Module>.docc), where Xcode, the
# docc plugin and the Swift Package Index find it. This script merges the four into one archive:
# DocC places the articles under DependencyKit and gives AppCore, HTTPServiceKit and DependencyKitTesting their
# own pages in the same archive, so links between them resolve (``AppCore/CoreDependency``).
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(DependencyKit DependencyKitTesting HTTPServiceKit AppCore)
out=.build-docs
graphs=$out/symbol-graphs
raw=$out/raw-symbol-graphs
rm -rf "$graphs" "$out/DependencyKit.doccarchive"
mkdir -p "$graphs" "$raw"

# A separate scratch path, because the extra compiler flags would otherwise invalidate the
# everyday build in .build. The raw graphs are kept between runs on purpose: an incremental
# build re-emits only the modules it recompiles.
swift build --scratch-path "$out/build" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$raw" \
    -Xswiftc -emit-extension-block-symbols

# Keep our modules' graphs, including what they add to other modules' types
# (DependencyKitTesting@XCTest: `XCTestCase.useDependencies(_:)`). Extension blocks are what let
# DocC render those members under "Extended Modules" instead of dropping them.
for module in "${modules[@]}"; do
    if [[ ! -f $raw/$module.symbols.json ]]; then
        echo "build-docs: no symbol graph for $module; remove $out and run again" >&2
        exit 1
    fi
    cp "$raw/$module.symbols.json" "$graphs/"
    for extension in "$raw/$module@"*.symbols.json; do
        [[ -e $extension ]] && cp "$extension" "$graphs/"
    done
done

# AppCore re-exports HTTPServiceKit (`@_exported import`), so the compiler writes HTTPServiceKit's
# symbols into AppCore's graph too; DocC would then place them under AppCore. Keep each symbol in
# the graph of the module that declares it (its precise identifier starts with that module's name).
python3 - "$graphs" "${modules[@]}" <<'PY'
import json, pathlib, sys
graphs, modules = pathlib.Path(sys.argv[1]), sys.argv[2:]
for module in modules:
    path = graphs / f"{module}.symbols.json"
    graph = json.loads(path.read_text())
    foreign = tuple(f"s:{len(m)}{m}" for m in modules if m != module)
    # A member this module adds to another's type carries the module's name after the type's.
    own_extension = f"{len(module)}{module}E"
    dropped = {
        s["identifier"]["precise"]
        for s in graph["symbols"]
        if s["identifier"]["precise"].startswith(foreign) and own_extension not in s["identifier"]["precise"]
    }
    if dropped:
        graph["symbols"] = [s for s in graph["symbols"] if s["identifier"]["precise"] not in dropped]
        graph["relationships"] = [r for r in graph["relationships"] if r["source"] not in dropped]
        path.write_text(json.dumps(graph))
PY

# Run both checks even if the first fails, so one run shows every problem.
status=0
python3 Scripts/check-doc-coverage.py "$graphs" "${modules[@]}" || status=1

# The merged catalog: DependencyKit's, plus the landing pages and articles of the other three
# modules (AppCore's catalog holds the articles about AppCore itself).
merged=$out/DependencyKit.docc
rm -rf "$merged"
cp -R Sources/DependencyKit/DependencyKit.docc "$merged"
for module in AppCore DependencyKitTesting HTTPServiceKit; do
    cp Sources/$module/$module.docc/*.md "$merged/"
    for article in Sources/$module/$module.docc/Articles/*.md; do
        [[ -e $article ]] || continue
        if [[ -e $merged/Articles/$(basename "$article") ]]; then
            echo "build-docs: two catalogs have an article named $(basename "$article")" >&2
            exit 1
        fi
        cp "$article" "$merged/Articles/"
    done
done

docc convert "$merged" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name DependencyKit \
    --fallback-bundle-identifier DependencyKit \
    --warnings-as-errors \
    --output-path "$out/DependencyKit.doccarchive" || status=1

if [[ $status -ne 0 ]]; then
    echo "build-docs: failed" >&2
    exit 1
fi
echo "build-docs: $out/DependencyKit.doccarchive"
