#!/usr/bin/env bash
# Measures what an `@Inject` holder keeps once the scope it was read in has ended.
#
# Usage: Benchmarks/Scripts/measure-inject-holders.sh [PACKAGE_PATH] [HOLDERS]
#   PACKAGE_PATH  the DependencyKit checkout to measure (default: this repository)
#   HOLDERS       how many holders to make (default: 10000)
#
# Builds a small release executable against PACKAGE_PATH in a temporary directory, as a test suite
# would use the library: each holder (a view model with one `@Inject` property) is read inside its own
# override scope — a new container and one `.override`, like a test's trait — whose `shared {}` 1 KiB
# instance the value is built on but does not keep. The holders are kept; the scopes end. It prints
# the heap bytes in use (glibc's `mallinfo2`) after the holders are made, less before, per holder, and
# how many of the scopes' instances were released while the holders live. Linux only.
#
# With valgrind installed, it then counts the instructions of one read of a holder whose value is
# current (the cost the `@Inject` discussion states), on the global container and inside an override
# scope, as Benchmarks/Scripts/benchmarks-instructions.sh does: callgrind at two read counts on a
# stripped copy, the difference of the totals over the difference of the counts.
set -euo pipefail

package_path=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
holders=${2:-10000}

. "$(dirname "$0")/heap-probe.sh"
heap_probe MeasureInjectHolders "$package_path"
cat > "$work/Sources/MeasureInjectHolders/main.swift" <<'SOURCE'
import DependencyKit
import Glibc
import Heap

nonisolated(unsafe) var released = 0

/// A scope's shared instance: 1 KiB, counted when released.
final class Book: Sendable {
    let pages = [UInt8](repeating: 1, count: 1_024)
    deinit { released += 1 }
}

protocol LedgerDependency: DependencyContainer {
    func resolveHour() -> Int
    func resolveBook() -> Book
    func resolveTitle() -> Int
}

final class LedgerCore: DependencyContainer, LedgerDependency, @unchecked Sendable {
    func resolveHour() -> Int { fresh { 9 } }
    func resolveBook() -> Book { shared { Book() } }
    func resolveTitle() -> Int { fresh { resolveHour() * 10_000 + resolveBook().pages.count } }
}

let ledgerInjector = Injector<any LedgerDependency> { LedgerCore() }

struct LedgerViewModel {
    @Inject(ledgerInjector, { $0.resolveTitle() }) var title
}

func heapInUse() -> Int { Int(heap_in_use()) }

/// Keeps `value` alive and opaque to the optimiser.
@_optimize(none)
func blackHole(_ value: some Any) {}

if CommandLine.arguments[1] == "read" {
    let reads = Int(CommandLine.arguments[3])!
    let holder = LedgerViewModel()
    func readAll() { for _ in 0..<reads { blackHole(holder.title) } }
    if CommandLine.arguments[2] == "override" {
        withDependencies(LedgerCore(), .override({ $0.resolveHour() }, with: 1)) { readAll() }
    } else {
        readAll()
    }
    exit(0)
}

let count = Int(CommandLine.arguments[1])!
// Warm up: the first scope and read allocate what the process keeps anyway.
let warm = LedgerViewModel()
withDependencies(LedgerCore(), .override({ $0.resolveHour() }, with: -1)) { precondition(warm.title == -8_976) }
released = 0

var holders: [LedgerViewModel] = []
holders.reserveCapacity(count)
let before = heapInUse()
for hour in 0..<count {
    let holder = LedgerViewModel()
    let title = withDependencies(LedgerCore(), .override({ $0.resolveHour() }, with: hour)) { holder.title }
    precondition(title == hour * 10_000 + 1_024)
    holders.append(holder)
}
let after = heapInUse()
print("\(count) holders, each read in its own override scope:")
print("  \((after - before) / count) B kept per holder, \(released) of \(count) scopes' instances released")
withExtendedLifetime(holders) {}
SOURCE

heap_probe_build
"$work/.build/release/MeasureInjectHolders" "$holders"

command -v valgrind >/dev/null || exit 0
cp "$work/.build/release/MeasureInjectHolders" "$work/probe"
strip "$work/probe"
count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/probe" read "$1" "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
low=2000
high=22000
for where in global override; do
    a=$(count "$where" "$low")
    b=$(count "$where" "$high")
    python3 -c "print(f'  a current read, {\"$where\"}: {($b - $a) / ($high - $low):.1f} instructions')"
done
