/// One resolution in a chain: what was asked for, how, and from which container.
///
/// Steps name types and resolve methods only, never the values involved, so they are safe
/// to log.
public struct ResolutionStep: Sendable, Hashable, CustomStringConvertible {
    /// The resolve's name, usually the resolve method's `#function` (`resolveUsersWorker()`).
    public let name: String
    /// The type the resolution was asked for: the result type of the closure given to `fresh {}`
    /// or `shared {}` (usually the concrete type), the requested type for the tagged registry
    /// (usually a protocol, written without `any`).
    public let requestedType: String
    /// How the value is produced.
    public let lifetime: ResolutionLifetime
    /// The class of the container that served the resolve, if it came from a container.
    public let container: String?

    /// Creates a step.
    /// - Parameters:
    ///   - name: The resolve's name.
    ///   - requestedType: The type the resolve returns.
    ///   - lifetime: How the value is produced.
    ///   - container: The class of the container serving it.
    public init(name: String, requestedType: String, lifetime: ResolutionLifetime, container: String?) {
        self.name = name
        self.requestedType = requestedType
        self.lifetime = lifetime
        self.container = container
    }

    /// The step on one line: `resolveUsersWorker() -> UsersWorker [fresh, CoreDependency]`.
    public var description: String {
        "\(name) -> \(requestedType) [\(ResolutionStep.details(lifetime, container))]"
    }

    static func details(_ lifetime: ResolutionLifetime, _ container: String?) -> String {
        container.map { "\(lifetime.rawValue), \($0)" } ?? lifetime.rawValue
    }
}
