#!/usr/bin/env bash
# Fails when the public API of a library product differs from its baseline in Docs/API/, so that a
# change to the public API is made on purpose: it shows as a diff of Docs/API/<Module>.txt in the
# same commit, next to its CHANGELOG line.
#
#   bash Scripts/check-public-api.sh            # compare every product's API with its baseline
#   bash Scripts/check-public-api.sh --update   # rewrite the baselines from the code
#
# How: the library targets are built (scratch path .build-api, or $API_SCRATCH), then
# `swift-api-digester -dump-sdk`, which ships with the toolchain, dumps each module's declarations,
# and Scripts/public-api.py renders the public ones as sorted text: no file paths, no timestamps,
# no tool arguments, so the same code gives the same text on every machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

update=0
case "${1:-}" in
    --update) update=1 ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

# Every library product of Package.swift, one module each.
modules=(DependencyKit DependencyKitTesting HTTPServiceKit AppCore)
baselines=Docs/API
scratch=${API_SCRATCH:-.build-api}

digester=$(command -v swift-api-digester || true)
if [[ -z $digester ]]; then
    digester="$(dirname "$(readlink -f "$(command -v swift)")")/swift-api-digester"
fi
[[ -x $digester ]] || { echo "check-public-api: swift-api-digester not found next to swift" >&2; exit 1; }

for module in "${modules[@]}"; do
    swift build --scratch-path "$scratch" --target "$module" >/dev/null
done
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
# The C shims' module map, which DependencyKit's module needs to load.
shims_map=$(find "$scratch" -path "*_DependencyKitShims.build/module.modulemap" -print -quit)
[[ -n $shims_map ]] || { echo "check-public-api: no module map for _DependencyKitShims under $scratch" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/public-api.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$baselines"

status=0
for module in "${modules[@]}"; do
    "$digester" -dump-sdk -module "$module" -I "$bin/Modules" -Xcc "-fmodule-map-file=$PWD/$shims_map" \
        -avoid-location -avoid-tool-args -o "$work/$module.json"
    python3 Scripts/public-api.py "$module" "$work/$module.json" >"$work/$module.txt"
    if [[ $update -eq 1 ]]; then
        cp "$work/$module.txt" "$baselines/$module.txt"
        echo "check-public-api: wrote $baselines/$module.txt ($(wc -l <"$baselines/$module.txt") declarations)"
    elif [[ ! -f $baselines/$module.txt ]]; then
        echo "error: $module has no baseline: run bash Scripts/check-public-api.sh --update and commit $baselines/$module.txt" >&2
        status=1
    elif ! diff -u --label "$baselines/$module.txt (baseline)" --label "$module (the code)" \
        "$baselines/$module.txt" "$work/$module.txt"; then
        echo "error: the public API of $module differs from $baselines/$module.txt (above: - baseline, + code)." >&2
        echo "       If the change is on purpose, run bash Scripts/check-public-api.sh --update, commit the" >&2
        echo "       baseline with the change, and add a CHANGELOG line under Unreleased." >&2
        status=1
    fi
done
if [[ $update -eq 0 && $status -eq 0 ]]; then
    echo "check-public-api: the public API of ${modules[*]} matches $baselines/"
fi
exit "$status"
