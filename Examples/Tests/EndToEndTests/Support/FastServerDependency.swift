import DependencyKit
import UsersAPI

/// The production server container with a cheap password hash, so tests stay quick.
///
/// It overrides one resolve; every handler picks the change up through `dependencies`.
final class FastServerDependency: ServerCoreDependency, @unchecked Sendable {
    override func resolvePasswordHasher() -> any PasswordHasher { PBKDF2PasswordHasher(iterations: 2) }
}
