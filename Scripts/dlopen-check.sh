#!/usr/bin/env bash
# Builds DependencyKit into a shared library (IntegrationTests/DynamicLoadingCheck, product
# GraphPlugin), loads it with dlopen from a C host process that has no Swift in it, and resolves a
# graph through an exported entry point: the global container, a scope and a per-graph instance, so every thread-local of the
# engine is used from the loaded library.
#
# The library's thread-locals use the initial-exec model (the DF_STATIC_TLS flag; see
# Sources/DependencyKit/Internal/RuntimeShortcuts.swift, section 5): the load proves they fit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/IntegrationTests/DynamicLoadingCheck"

swift build -c release --product GraphPlugin
bin=$(swift build -c release --show-bin-path)
library="$bin/libGraphPlugin.so"
[ -f "$library" ] || library="$bin/libGraphPlugin.dylib"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -o "$work/host" Host/host.c -ldl
"$work/host" "$library"
