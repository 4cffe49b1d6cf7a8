public import Foundation

/// How long a bearer token works, and what a new log-in does to the user's other tokens.
///
/// A token expires `lifetime` after it was issued. A log-in revokes every earlier token of the
/// same user: one live session per account, so a stolen token dies at the owner's next log-in
/// and a sign-out everywhere is a log-in away. (An API that serves several devices per user
/// would keep one session per device instead; this example keeps the simpler, stricter rule.)
public struct SessionPolicy: Sendable, Hashable {
    /// How long a token works after it is issued.
    public let lifetime: Duration

    /// Creates a policy.
    /// - Parameter lifetime: How long a token works; 12 hours by default. Must be positive.
    public init(lifetime: Duration = .seconds(12 * 60 * 60)) {
        guard lifetime > .zero else {
            fatalError("SessionPolicy(lifetime: \(lifetime)): the lifetime must be positive")
        }
        self.lifetime = lifetime
    }

    /// When a token issued at `now` expires.
    /// - Parameter now: When the token is issued.
    /// - Returns: Its expiry.
    public func expiry(from now: Date) -> Date {
        let (seconds, attoseconds) = lifetime.components
        return now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// Tells the time; the server reads it through its container so tests can move it.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's clock.
public struct SystemWallClock: WallClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Date { Date() }
}
