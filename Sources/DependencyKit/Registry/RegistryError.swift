/// Why a ``DependencyRegistry`` could not resolve a type.
public enum RegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing is registered for `type` — neither with `tag` (when one was asked for) nor
    /// without a tag.
    /// - Parameters:
    ///   - type: The requested type as the runtime prints it (`FriendsProvider` for
    ///     `any FriendsProvider`).
    ///   - tag: The requested tag, if any.
    case notRegistered(type: String, tag: RegistryTag?)

    /// A one-line explanation that names the type and the tag.
    public var description: String {
        switch self {
        case .notRegistered(let type, nil):
            "No registration for \(type)"
        case .notRegistered(let type, let tag?):
            "No registration for \(type) with tag \(tag), and none without a tag"
        }
    }
}
