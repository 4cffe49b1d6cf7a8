// Public only so that the one-load check below can be inlined into other modules' resolves;
// nothing in DependencyKit's API names a type from this module.
public import DependencyKitAtomics

/// The process-wide word that gates every diagnostic: read once per resolution, relaxed.
///
/// Bit 0 records that cycle checking differs from the build's default (on in debug builds,
/// off in release builds); bits 1–15 count live traces; the bits from 16 up count live test
/// contexts (DependencyKitTesting's guard), so that every resolution inside a guarded test takes
/// the diagnosed path while production code never does. The word holds
/// ``idle`` exactly when there is nothing to do, so the hot path is one relaxed load and one
/// compare against a constant.
@usableFromInline
enum DiagnosticsWord {
    /// Set when cycle checking is not the build default.
    static let toggledBit = 1
    /// What one live trace adds.
    static let traceUnit = 2
    /// What one live test context adds.
    static let testContextUnit = 1 << 16

    /// Whether this build of DependencyKit checks cycles unless told otherwise.
    @inlinable
    static var checksCyclesByDefault: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// The word's value when cycle checking is off and nothing is traced.
    @inlinable
    static var idle: Int { checksCyclesByDefault ? 1 : 0 }

    /// Whether any diagnostic may need to see the current resolution: the whole cost of the
    /// diagnostics when they are off.
    @inlinable
    static var isActive: Bool { dk_diagnostics_load_relaxed() != idle }

    /// Whether cycle checking is on, given a loaded word.
    static func checksCycles(_ word: Int) -> Bool {
        (word & toggledBit != 0) != checksCyclesByDefault
    }

    /// Whether any trace is live, given a loaded word.
    static func isTracing(_ word: Int) -> Bool { word & (testContextUnit - traceUnit) != 0 }

    /// Whether any test context is live, given a loaded word.
    static func hasTestContexts(_ word: Int) -> Bool { word >= testContextUnit }

    static func load() -> Int { dk_diagnostics_load_relaxed() }

    static func setChecksCycles(_ on: Bool) {
        if on == checksCyclesByDefault {
            dk_diagnostics_fetch_and(~toggledBit)
        } else {
            dk_diagnostics_fetch_or(toggledBit)
        }
    }

    static func beginTrace() { dk_diagnostics_fetch_add(traceUnit) }

    static func endTrace() { dk_diagnostics_fetch_add(-traceUnit) }

    static func beginTestContext() { dk_diagnostics_fetch_add(testContextUnit) }

    static func endTestContext() { dk_diagnostics_fetch_add(-testContextUnit) }
}
