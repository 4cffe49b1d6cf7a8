/// A resolution that requires itself, with the whole chain that leads back to it.
///
/// When cycle checking is on (see ``Diagnostics/cycleChecking``), the resolution that would
/// close a cycle does not run. Resolutions that return a value stop the process with this
/// error's ``description``; resolutions that already throw, such as the tagged registry's,
/// throw it.
///
/// ```text
/// Dependency cycle: AuthenticationWorker → AuthenticationNetworkService → AuthenticationWorker
///   resolveAuthenticationWorker() -> AuthenticationWorker [fresh, AppDependency]
///   resolveAuthenticationService() -> AuthenticationNetworkService [fresh, AppDependency]
///   resolveAuthenticationWorker() -> AuthenticationWorker [fresh, AppDependency]
/// ```
public struct DependencyCycleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The resolutions in the cycle, outermost first; the last one is the first one again.
    public let chain: [ResolutionStep]

    /// Creates the error for a chain whose last step repeats its first.
    /// - Parameter chain: The resolutions in the cycle, outermost first.
    public init(chain: [ResolutionStep]) {
        self.chain = chain
    }

    /// The chain on one line: the types its resolutions produce, joined by arrows — or their
    /// names, when two resolutions in the cycle produce the same type (tagged registrations).
    public var summary: String {
        let types = chain.map(\.requestedType)
        let distinct = Set(types.dropLast()).count == types.count - 1
        return (distinct ? types : chain.map(\.name)).joined(separator: " → ")
    }

    /// The chain as a summary line followed by one line per resolution.
    public var description: String {
        (["Dependency cycle: \(summary)"] + chain.map { "  \($0)" }).joined(separator: "\n")
    }

    /// What the process prints when a cycle stops it.
    var trapMessage: String {
        description + "\n"
            + "A resolution required itself before returning. Break the cycle, for example by resolving\n"
            + "one side lazily (a closure or a Factory) instead of in an initializer.\n"
            + "Diagnostics.cycleChecking turns this check on or off."
    }
}
