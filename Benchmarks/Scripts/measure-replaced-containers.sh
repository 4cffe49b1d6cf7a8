#!/usr/bin/env bash
# Measures what replacing the global container keeps: the heap bytes left per install and how many of
# the replaced containers' shared instances were freed (issue 45, row 1).
#
# Usage: Benchmarks/Scripts/measure-replaced-containers.sh [PACKAGE_PATH] [INSTALLS]
#   PACKAGE_PATH  the DependencyKit checkout to measure (default: this repository)
#   INSTALLS      how many containers to install (default: 20000)
#
# Builds a small release executable against PACKAGE_PATH in a temporary directory. It installs INSTALLS
# containers in a loop, as an app that installs one at each log-out, each building one 1 KiB `shared {}`
# instance, then installs one more (the last log-out) and reads once. It prints the heap in use after the
# loop minus before it (glibc's `mallinfo2`, small blocks and mapped ones), divided by INSTALLS, and how
# many of the INSTALLS shared instances ran their deinit. Linux (glibc) only.
set -euo pipefail

package_path=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
installs=${2:-20000}

. "$(dirname "$0")/heap-probe.sh"
heap_probe MeasureReplacedContainers "$package_path"
cat > "$work/Sources/MeasureReplacedContainers/main.swift" <<'SOURCE'
import DependencyKit
import Heap

/// Counts the measured stores (those built inside the loop) that were freed; one thread.
nonisolated(unsafe) var measuring = false
nonisolated(unsafe) var freed = 0

/// A session store of 1 KiB, one per container.
final class Store: Sendable {
    let bytes = [UInt8](repeating: 1, count: 1_024)
    let measured = measuring
    deinit { if measured { freed += 1 } }
}

protocol SessionDependency: DependencyContainer {
    func resolveStore() -> Store
}

final class SessionContainer: DependencyContainer, SessionDependency, @unchecked Sendable {
    func resolveStore() -> Store { shared { Store() } }
}

let injector = Injector<any SessionDependency> { SessionContainer() }

func heapInUse() -> Int { Int(heap_in_use()) }

let installs = Int(CommandLine.arguments[1])!
// One install and read before measuring: what a process allocates once is not counted.
injector.dependencies = SessionContainer()
precondition(injector.dependencies.resolveStore().bytes.count == 1_024)
let before = heapInUse()
measuring = true
for _ in 0..<installs {
    injector.dependencies = SessionContainer()
    precondition(injector.dependencies.resolveStore().bytes.count == 1_024)
}
measuring = false
// The last log-out, and one more read.
injector.dependencies = SessionContainer()
_ = injector.dependencies
let after = heapInUse()
print("\(installs) installs: \((after - before) / installs) B kept per install, \(freed) of \(installs) shared instances freed")
SOURCE

heap_probe_build
"$work/.build/release/MeasureReplacedContainers" "$installs"
