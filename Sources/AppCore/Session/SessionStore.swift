public import DependencyKit

extension Lifetime {
    /// The signed-in session: from a sign-in to the log-out that resets it.
    ///
    /// ``AuthenticationWorker/logOut(_:)`` resets it, so the next ``Dependency/resolveSessionStore()``
    /// returns a new, empty ``SessionStore``.
    public static let session = Lifetime("session")
}

/// The state every screen of a signed-in session shares: the session and the current user.
///
/// One instance per session: ``CoreDependency`` holds it in the ``DependencyKit/Lifetime/session``
/// scope (`shared(in: .session) {}`), so two screens that resolve it see the same store, and log-out
/// starts a new one. A screen that still holds the old store after log-out keeps a working object
/// that reports no session.
///
/// ```swift
/// let store = dependencies.resolveSessionStore()
/// if let user = store.currentUser { greet(user) }
/// ```
///
/// Thread-safe: its state sits behind a lock, so it is `Sendable` and may be read from any
/// thread or actor. The workers that change it stay immutable structs.
public final class SessionStore: Sendable {
    private struct State {
        var session: Session?
        var currentUser: User?
    }

    private let state = Lock(State())

    /// Creates an empty store: nobody is signed in.
    public init() {}

    /// The signed-in session, or `nil`.
    public var session: Session? { state.withLock { $0.session } }

    /// The signed-in user, or `nil`.
    public var currentUser: User? { state.withLock { $0.currentUser } }

    /// Whether somebody is signed in.
    public var isSignedIn: Bool { session != nil }

    /// Records a sign-in: the session and its user.
    /// - Parameter session: The session the server returned.
    public func signIn(_ session: Session) {
        state.withLock { state in
            state.session = session
            state.currentUser = session.user
        }
    }

    /// Replaces the current user, for example after the user edited their profile.
    /// - Parameter user: The user as the server now returns them.
    public func update(currentUser user: User) {
        state.withLock { $0.currentUser = user }
    }

    /// Forgets the session and the user.
    public func signOut() {
        state.withLock { $0 = State() }
    }
}
