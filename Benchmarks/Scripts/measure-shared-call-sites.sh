#!/usr/bin/env bash
# Measures the memory and time one container needs for many distinct shared call sites.
#
# Usage: Benchmarks/Scripts/measure-shared-call-sites.sh [PACKAGE_PATH] [SITES...]
#   PACKAGE_PATH  the DependencyKit checkout to measure (default: this repository)
#   SITES         call-site counts to try (default: 1000 4000)
#
# Builds a small release executable against PACKAGE_PATH in a temporary directory, then runs it
# once per count under /usr/bin/time and prints the peak resident set size and the wall time.
# Each run resolves every call site twice (creation, then lookup) on one container.
set -euo pipefail

package_path=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
shift || true
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then sites=(1000 4000); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/MeasureSharedCallSites"
cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MeasureSharedCallSites",
    dependencies: [.package(path: "$package_path")],
    targets: [
        .executableTarget(
            name: "MeasureSharedCallSites",
            dependencies: [.product(name: "DependencyKit", package: "$(basename "$package_path")")]
        )
    ]
)
MANIFEST
cat > "$work/Sources/MeasureSharedCallSites/main.swift" <<'SOURCE'
import DependencyKit

final class Token: Sendable {}

let sites = Int(CommandLine.arguments[1])!
let container = DependencyContainer()
var distinct = Set<ObjectIdentifier>()
for round in 0..<2 {
    for site in 0..<sites {
        let token = container.shared(fileID: "Measure/Sites.swift", line: UInt(site), column: 1) { Token() }
        if round == 0 { distinct.insert(ObjectIdentifier(token)) }
    }
}
precondition(distinct.count == sites)
print("\(sites) call sites resolved twice")
SOURCE

swift build -c release --package-path "$work" >/dev/null
for count in "${sites[@]}"; do
    /usr/bin/time -f "  peak RSS %M KB, wall %e s, user %U s" "$work/.build/release/MeasureSharedCallSites" "$count"
done
