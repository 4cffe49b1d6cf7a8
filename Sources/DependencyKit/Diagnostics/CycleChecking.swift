/// Whether resolutions are checked for dependency cycles.
///
/// See ``Diagnostics/cycleChecking`` for the policy and its cost.
public enum CycleChecking: Sendable, Hashable, CaseIterable {
    /// No checks: a cycle recurses until the stack overflows. Resolution costs one relaxed load
    /// more than undiagnosed code. The default in release builds.
    case off
    /// Every resolution is pushed on the current task's resolution chain; one that would close a
    /// cycle stops the process with a message naming the chain (a throwing resolution throws
    /// ``DependencyCycleError`` instead). The default in debug builds.
    case trap
}
