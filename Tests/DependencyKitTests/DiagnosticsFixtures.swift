import Testing

@testable import DependencyKit

// Small graphs for the diagnostics tests. Type names are part of the expected strings.

protocol Barista: Sendable {}
struct HumanBarista: Barista {
    let grinder: Grinder
}
final class Grinder: Sendable {}
struct Roaster: Sendable {
    let grinder: Grinder
}
struct Cafe: Sendable {
    let barista: any Barista
    let roaster: Roaster
}

/// Builds a café: two fresh branches that share one grinder.
final class Kitchen: DependencyContainer, @unchecked Sendable {
    private let grinder = Locked<Grinder?>(nil)

    func resolveCafe() -> Cafe { fresh { Cafe(barista: resolveBarista(), roaster: resolveRoaster()) } }
    func resolveBarista() -> any Barista { fresh { HumanBarista(grinder: resolveGrinder()) } }
    func resolveRoaster() -> Roaster { fresh { Roaster(grinder: resolveGrinder()) } }

    /// One grinder per kitchen, through the engine's hook with the shared lifetime.
    func resolveGrinder() -> Grinder {
        withResolution(#function, of: Grinder.self, lifetime: .shared, container: self) {
            if let existing = grinder.withLock({ $0 }) { return existing }
            let made = Grinder()
            return grinder.withLock { current in
                if let current { return current }
                current = made
                return made
            }
        }
    }
}

/// Makes sure cycle checking is on, whatever the build's default; setting it is idempotent, so
/// tests running in parallel may all call this.
func requireCycleChecking() {
    Diagnostics.cycleChecking = .trap
}

/// The standard error of an exit test, as text.
func standardError(of result: ExitTest.Result?) -> String {
    result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
}
