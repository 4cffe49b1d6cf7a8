#!/usr/bin/env bash
# Builds DependencyKit into a shared library (IntegrationTests/DynamicLoadingCheck, product
# GraphPlugin), loads it
# with dlopen from a C host process that has no Swift in it, and resolves a graph through an exported
# entry point: the global container, a scope and a per-graph instance, so every thread-local of the
# engine is used from the loaded library.
#
# On ELF platforms it also fails if the library needs the static TLS block (the DF_STATIC_TLS flag,
# which `tls_model("initial-exec")` sets): glibc can refuse to `dlopen` such a library ("cannot
# allocate memory in static TLS block") once other libraries have used the block's spare room. The
# load itself succeeds here either way (this host leaves the room free), so the flag is the check.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/IntegrationTests/DynamicLoadingCheck"

swift build -c release --product GraphPlugin
bin=$(swift build -c release --show-bin-path)
library="$bin/libGraphPlugin.so"
[ -f "$library" ] || library="$bin/libGraphPlugin.dylib"

if command -v readelf >/dev/null 2>&1 && readelf -d "$library" >/dev/null 2>&1; then
    if readelf -d "$library" | grep -q STATIC_TLS; then
        echo "dlopen-check: $library needs the static TLS block (DF_STATIC_TLS): a thread-local uses the initial-exec model" >&2
        exit 1
    fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -o "$work/host" Host/host.c -ldl
"$work/host" "$library"
