import AppCore
import DependencyKit

// What each lifetime costs per resolve, compared with a fresh resolve of the same value
// (`lifetime.fresh`, the baseline of every `lifetime.*` benchmark in
// Benchmarks/Scripts/benchmarks-instructions.sh). The value is a class instance in every case, so the
// fresh resolve pays an allocation that the others skip once their instance exists.

extension Lifetime {
    static let benchmark = Lifetime("benchmark")
}

final class LifetimeValue: Sendable {}

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
final class LifetimeDependency: DependencyContainer, @unchecked Sendable {
    func resolveFresh() -> LifetimeValue { fresh { LifetimeValue() } }
    func resolveShared() -> LifetimeValue { shared { LifetimeValue() } }
    func resolveScoped() -> LifetimeValue { shared(in: .benchmark) { LifetimeValue() } }
    func resolveScoped(in scope: Lifetime) -> LifetimeValue { shared(in: scope) { LifetimeValue() } }
    func resolvePerGraph() -> LifetimeValue { perGraph { LifetimeValue() } }
}

let lifetimeContainer = LifetimeDependency()

let lifetimeProbes: [Probe] = [
    Probe(
        name: "lifetime.fresh", setUp: {},
        body: { iterations in
            for _ in 0..<iterations { blackHole(lifetimeContainer.resolveFresh()) }
        }),
    Probe(
        name: "lifetime.shared-hit", setUp: { _ = lifetimeContainer.resolveShared() },
        body: { iterations in
            for _ in 0..<iterations { blackHole(lifetimeContainer.resolveShared()) }
        }),
    Probe(
        name: "lifetime.scoped-hit", setUp: { _ = lifetimeContainer.resolveScoped() },
        body: { iterations in
            for _ in 0..<iterations { blackHole(lifetimeContainer.resolveScoped()) }
        }),
    Probe(
        // A reset followed by the resolve that makes the next generation's instance.
        name: "lifetime.scoped-reset", setUp: { _ = lifetimeContainer.resolveScoped() },
        body: { iterations in
            for _ in 0..<iterations {
                lifetimeContainer.reset(.benchmark)
                blackHole(lifetimeContainer.resolveScoped())
            }
        }),
    Probe(
        // A scope made at run time, its first resolve, and its end: the container frees the scope's
        // slot, cell and instance in a later sweep, whose cost this includes.
        name: "lifetime.scoped-run-time", setUp: {},
        body: { iterations in
            for _ in 0..<iterations { blackHole(lifetimeContainer.resolveScoped(in: Lifetime("document"))) }
        }),
    Probe(
        // A top-level per-graph resolve: a new graph, and its instance, every time.
        name: "lifetime.per-graph", setUp: {},
        body: { iterations in
            for _ in 0..<iterations { blackHole(lifetimeContainer.resolvePerGraph()) }
        }),
]

/// Runs `operation` with `overrides` in effect for `injector`'s container, in nested `withOverrides`
/// scopes of ten overrides each (the last scope takes what is left), the first outermost.
///
/// The public API takes overrides variadically, so a count chosen at run time nests. A scope records
/// its overrides on top of the ones in effect, so the innermost scope holds every entry, as a single
/// scope given all of them would, and the last override answers. Ten to a scope keeps 10,000
/// overrides to 1,000 nested scopes, within the main thread's stack.
func withNestedOverrides<Container, R>(
    _ overrides: ArraySlice<DependencyContainer.Override<Container>>,
    of injector: Injector<Container>,
    operation: () -> R
) -> R {
    guard let first = overrides.first else { return operation() }
    guard overrides.count >= 10 else {
        return injector.withOverrides(first) {
            withNestedOverrides(overrides.dropFirst(), of: injector, operation: operation)
        }
    }
    let ten = Array(overrides.prefix(10))
    return injector.withOverrides(ten[0], ten[1], ten[2], ten[3], ten[4], ten[5], ten[6], ten[7], ten[8], ten[9]) {
        withNestedOverrides(overrides.dropFirst(10), of: injector, operation: operation)
    }
}

// What an override scope costs: the AppCore graph resolved inside a scope with one override of the
// HTTP configuration (a value equal to the container's), and with 10,000 (the same resolve, declared
// 10,000 times in nested scopes: the last answers). The baseline is `graph.global`; while any
// override scope is alive, every resolution in the process takes the diagnosed path.
let overrideProbes: [Probe] = [1, 10_000].map { count in
    Probe(
        name: count == 1 ? "override.graph-one" : "override.graph-10000",
        setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
        body: { iterations in
            let configuration = DependencyInjector.dependencies.resolveHTTPConfiguration()
            let overrides = (0..<count).map { _ in
                DependencyContainer.Override<any Dependency>.override(
                    { $0.resolveHTTPConfiguration() }, with: configuration)
            }
            withNestedOverrides(overrides[...], of: DependencyInjector.injector) {
                for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                check(consumer.resolveGraph(), "override.graph")
            }
        })
}

// What setting up override scopes costs: 10,000 value overrides recorded in nested scopes, and 1,000
// nested relative overrides (`+ 1` each on the HTTP configuration's timeout) resolved once at the
// innermost scope. Not compared with a baseline: the per-iteration count is the cost of one set-up.
let overrideSetUpProbes: [Probe] = [
    Probe(
        name: "override.setup-10000",
        setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
        body: { iterations in
            let configuration = DependencyInjector.dependencies.resolveHTTPConfiguration()
            for _ in 0..<iterations {
                let overrides = (0..<10_000).map { _ in
                    DependencyContainer.Override<any Dependency>.override(
                        { $0.resolveHTTPConfiguration() }, with: configuration)
                }
                withNestedOverrides(overrides[...], of: DependencyInjector.injector) {
                    blackHole(DependencyInjector.dependencies.resolveHTTPConfiguration())
                }
            }
        }),
    Probe(
        name: "override.nested-relative-1000",
        setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
        body: { iterations in
            func nest(_ level: Int) -> HTTPConfiguration {
                guard level < 1_000 else { return DependencyInjector.dependencies.resolveHTTPConfiguration() }
                return DependencyInjector.injector.withOverrides(.override({ $0.resolveHTTPConfiguration() }) { $0 }) {
                    nest(level + 1)
                }
            }
            for _ in 0..<iterations { blackHole(nest(0)) }
        }),
]

// What a lookup costs beside many overrides: scopes with 1 or 10,000 value overrides of
// `resolveHour()`, resolving the overridden resolve (`override.hour-N`) or another resolve of the same
// type (`override.minute-N`). Entries are indexed by resolve, so both stay flat as N grows.
protocol ClockProbeDependency: DependencyContainer {
    func resolveHour() -> Int
    func resolveMinute() -> Int
}

// `@unchecked Sendable`: sound because this class stores nothing.
final class CoreClockProbe: DependencyContainer, ClockProbeDependency, @unchecked Sendable {
    func resolveHour() -> Int { fresh { 9 } }
    func resolveMinute() -> Int { fresh { 30 } }
}

let clockProbeInjector = Injector<any ClockProbeDependency> { CoreClockProbe() }

let overrideLookupProbes: [Probe] = [1, 10_000].flatMap { count in
    [true, false].map { overridden in
        Probe(
            name: "override.\(overridden ? "hour" : "minute")-\(count)", setUp: {},
            body: { iterations in
                let overrides = (0..<count).map { hour in
                    DependencyContainer.Override<any ClockProbeDependency>.override({ $0.resolveHour() }, with: hour)
                }
                withDependencies(CoreClockProbe()) {
                    withNestedOverrides(overrides[...], of: clockProbeInjector) {
                        let container = clockProbeInjector.dependencies
                        for _ in 0..<iterations {
                            blackHole(overridden ? container.resolveHour() : container.resolveMinute())
                        }
                    }
                }
            })
    }
}

// One resolve at the innermost of 100 or 1,000 nested relative overrides (`+ 1` each): the scopes are
// set up once per run, so the per-iteration count is one resolve, which is linear in the depth.
let nestedRelativeProbes: [Probe] = [100, 1_000].map { depth in
    Probe(
        name: "override.relative-depth-\(depth)", setUp: {},
        body: { iterations in
            func nest(_ level: Int) {
                guard level < depth else {
                    let container = clockProbeInjector.dependencies
                    for _ in 0..<iterations { blackHole(container.resolveHour()) }
                    return
                }
                clockProbeInjector.withOverrides(.override({ $0.resolveHour() }) { $0 + 1 }) { nest(level + 1) }
            }
            withDependencies(CoreClockProbe()) { nest(0) }
        })
}

// A request on a long-lived container, in an override scope of its own (one value override of the HTTP
// configuration, equal to the container's): the scope owns the shared instances the request uses, so
// each request builds them. Compare with `graph.global`, the same request without a scope.
let requestScopeProbes: [Probe] = [
    Probe(
        name: "override.request-scope",
        setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
        body: { iterations in
            let configuration = DependencyInjector.dependencies.resolveHTTPConfiguration()
            for _ in 0..<iterations {
                DependencyInjector.injector.withOverrides(
                    .override({ $0.resolveHTTPConfiguration() }, with: configuration)
                ) {
                    blackHole(consumer.resolveGraph())
                }
            }
        })
]
