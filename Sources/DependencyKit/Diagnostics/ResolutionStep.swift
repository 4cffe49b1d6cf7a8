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
    /// The class whose code built the value, when the resolve ran code a container class
    /// inherited: `CoreDependency` for a resolve that `AppDependency` serves without overriding.
    /// `nil` when the container's own class implements it, or when it is not known.
    public let implementer: String?

    /// Creates a step.
    /// - Parameters:
    ///   - name: The resolve's name.
    ///   - requestedType: The type the resolve returns.
    ///   - lifetime: How the value is produced.
    ///   - container: The class of the container serving it.
    ///   - implementer: The class whose code built the value; `nil`, or the same as `container`,
    ///     when the container's own class implements the resolve.
    public init(
        name: String,
        requestedType: String,
        lifetime: ResolutionLifetime,
        container: String?,
        implementer: String? = nil
    ) {
        self.name = name
        self.requestedType = requestedType
        self.lifetime = lifetime
        self.container = container
        self.implementer = implementer == container ? nil : implementer
    }

    /// The step on one line: `resolveClock() -> SystemClock [fresh, CoreGreetingDependency]`, or
    /// `[fresh, EveningDependency, inherited from CoreGreetingDependency]` when the container
    /// runs code it inherited.
    public var description: String {
        "\(name) -> \(requestedType) [\(ResolutionStep.details(lifetime, container, implementer))]"
    }

    static func details(_ lifetime: ResolutionLifetime, _ container: String?, _ implementer: String?) -> String {
        var parts = [lifetime.rawValue]
        if let container { parts.append(container) }
        if let implementer, implementer != container { parts.append("inherited from \(implementer)") }
        return parts.joined(separator: ", ")
    }
}
