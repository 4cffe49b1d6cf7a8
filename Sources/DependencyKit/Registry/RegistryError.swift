/// Why a ``DependencyRegistry`` could not resolve a type.
public enum RegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing is registered for `type` — neither with `tag` (when one was asked for) nor
    /// without a tag.
    /// - Parameters:
    ///   - type: The requested type as the runtime prints it (`FriendsProvider` for
    ///     `any FriendsProvider`).
    ///   - tag: The requested tag, if any.
    case notRegistered(type: String, tag: RegistryTag?)

    /// The resolution requires itself: a registered factory resolved, directly or through other
    /// registrations, what it is registered for. Thrown when cycle checking is on (see
    /// ``Diagnostics/checksCycles``), so a test can catch it.
    /// - Parameter cycle: The chain of resolutions, outermost first.
    case cycle(Diagnostics.CycleError)

    /// The registered factory for `type` threw an error of its own.
    /// - Parameters:
    ///   - type: The registered type as the runtime prints it.
    ///   - tag: The tag of the registration that threw, if any.
    ///   - reason: The factory's error, as it describes itself.
    case factoryFailed(type: String, tag: RegistryTag?, reason: String)

    /// A one-line explanation that names the type and the tag.
    public var description: String {
        switch self {
        case .notRegistered(let type, nil):
            "No registration for \(type)"
        case .notRegistered(let type, let tag?):
            "No registration for \(type) with tag \(tag), and none without a tag"
        case .cycle(let cycle):
            cycle.description
        case .factoryFailed(let type, nil, let reason):
            "The factory registered for \(type) failed: \(reason)"
        case .factoryFailed(let type, let tag?, let reason):
            "The factory registered for \(type) with tag \(tag) failed: \(reason)"
        }
    }
}
