import DependencyKit
import Foundation
import NIOConcurrencyHelpers
import UsersAPI

/// The production server container with a cheap password hash and an in-memory repository, so
/// tests stay quick and each server starts empty.
///
/// It overrides two resolves; every handler picks the change up through `dependencies`.
class FastServerDependency: ServerCoreDependency, @unchecked Sendable {
    override func resolvePasswordHasher() -> any PasswordHasher { fresh { PBKDF2PasswordHasher(iterations: 2) } }
    override func resolveUserRepository() -> any UserRepository { appShared { InMemoryUserRepository() } }
}

/// A server container whose clock a test moves and whose hasher counts its derivations.
final class ObservedServerDependency: FastServerDependency, @unchecked Sendable {
    let clock = ManualClock()
    let hasher = CountingHasher()

    override func resolveClock() -> any WallClock { fresh { clock } }
    override func resolvePasswordHasher() -> any PasswordHasher { fresh { hasher } }
}

/// A clock that moves only when told to.
final class ManualClock: WallClock {
    private let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))
    func now() -> Date { current.withLockedValue { $0 } }
    func advance(by seconds: TimeInterval) { current.withLockedValue { $0 += seconds } }
}

/// PBKDF2 with two iterations that counts how many keys it derived (a hash or a verify each).
final class CountingHasher: PasswordHasher {
    private let base = PBKDF2PasswordHasher(iterations: 2)
    private let count = NIOLockedValueBox(0)
    var derivations: Int { count.withLockedValue { $0 } }

    func hash(_ password: String) -> PasswordHash {
        count.withLockedValue { $0 += 1 }
        return base.hash(password)
    }

    func verify(_ password: String, against hash: PasswordHash) -> Bool {
        count.withLockedValue { $0 += 1 }
        return base.verify(password, against: hash)
    }
}
