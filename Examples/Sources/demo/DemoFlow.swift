import AppCore
import DependencyKit
import Foundation

/// The story the demo tells, written the way an app's screens would: workers come from
/// `dependencies`, never constructed by hand.
///
/// Every resolution the story makes is traced (each in the task that makes it, so the
/// in-process server's own resolutions stay out), because showing the graph is the point: the
/// transcript says which resolves the container overrides and which it inherits, and `--graph`
/// prints the graphs in full.
struct DemoFlow: HasDependencies {
    let transcript: Transcript
    let signUpExtraUser: Bool

    /// A step that failed, with its typed error's description (which never holds a secret).
    struct StepFailed: Error, CustomStringConvertible {
        let step: String
        let reason: String
        var description: String { "\(step): \(reason)" }
    }

    /// What the run resolved, and how it ended.
    struct Outcome {
        /// The workers the flow resolved from the installed container.
        var resolved: Diagnostics.ResolutionGraph?
        /// The users worker resolved inside the offline scope.
        var resolvedOffline: Diagnostics.ResolutionGraph?
        /// The step that failed, if one did.
        var failure: StepFailed?
    }

    func run() async -> Outcome {
        var outcome = Outcome()
        do throws(StepFailed) {
            try await run(recording: &outcome)
        } catch {
            outcome.failure = error
        }
        return outcome
    }

    private func run(recording outcome: inout Outcome) async throws(StepFailed) {
        let ((authentication, users), resolved) = Diagnostics.trace {
            (dependencies.resolveAuthenticationWorker(), dependencies.resolveUsersWorker())
        }
        outcome.resolved = resolved
        let container = String(describing: type(of: dependencies))
        transcript.container(resolved, heading: "Container: \(container), a CoreDependency subclass")
        transcript.line(
            "  cascade: "
                + Transcript.cascade(resolved.path(from: "resolveUsersWorker()", to: "resolveHTTPConfiguration()")))
        transcript.blank()

        let suffix = String(UUID().uuidString.prefix(6)).lowercased()
        let email = "ada.\(suffix)@example.com"
        // Generated per run and never printed; only the server sees it.
        let password = Secret("pw-" + UUID().uuidString)

        let signedUp = try await attempt("sign up") {
            try await authentication.signUp(name: "Ada Lovelace", email: email, password: password)
        }
        transcript.step(
            1,
            "Sign up",
            "\(signedUp.user.name) <\(signedUp.user.email)>, id \(signedUp.user.id.prefix(8))…"
        )
        if signUpExtraUser {
            let grace = try await attempt("sign up a second user") {
                try await authentication.signUp(
                    name: "Grace Hopper",
                    email: "grace.\(suffix)@example.com",
                    password: Secret("pw-" + UUID().uuidString)
                )
            }
            transcript.more("\(grace.user.name) <\(grace.user.email)> joined too")
        }

        let session = try await attempt("log in") { try await authentication.logIn(email: email, password: password) }
        transcript.step(2, "Log in", "signed in as \(session.user.email); token \(session.token)")
        // The session store lives in AppCore's `.session` scope: every screen that resolves it during
        // this session gets the same instance, and log-out resets the scope.
        let store = dependencies.resolveSessionStore()
        guard dependencies.resolveSessionStore() === store, store.currentUser?.email == email else {
            throw StepFailed(step: "read the session store", reason: "two resolves did not share the signed-in store")
        }
        transcript.more(
            "session store: \(email) signed in; every resolve this session shares it (shared(in: .session))")

        let fromNetwork = try await attempt("fetch the current user") {
            try await users.fetchCurrent(token: session.token)
        }
        transcript.step(3, "Current user", "from the network: \(fromNetwork.name) <\(fromNetwork.email)>")
        if let cached = await users.cachedCurrent() {
            transcript.more("from the cache:   \(cached.name) <\(cached.email)> (no request sent)")
        } else {
            transcript.more("the cache was empty", mark: "✗")
        }

        let everyone = try await attempt("list users") { try await users.fetchAll(token: session.token) }
        transcript.step(4, "All users", everyone.count == 1 ? "1 user" : "\(everyone.count) users")
        for user in everyone.suffix(5) { transcript.more("\(user.name) <\(user.email)>", mark: "•") }
        if everyone.count > 5 { transcript.more("… and \(everyone.count - 5) more", mark: " ") }

        outcome.resolvedOffline = try await offline(token: session.token, expecting: everyone)

        try await attempt("log out") { try await authentication.logOut(session) }
        try await attempt("clear the cache") { try await users.clearCache() }
        transcript.step(6, "Log out", "token revoked, cache cleared")
        let check: Result<User, UsersError>
        do throws(UsersError) {
            check = .success(try await users.fetchCurrent(token: session.token))
        } catch {
            check = .failure(error)
        }
        switch check {
        case .failure(.notAuthenticated):
            transcript.more("the old token is refused now (\(UsersError.notAuthenticated))")
        case .failure(let error):
            throw StepFailed(step: "check the old token", reason: error.description)
        case .success:
            throw StepFailed(step: "check the old token", reason: "the server still accepted it")
        }
        guard !store.isSignedIn else {
            throw StepFailed(step: "log out", reason: "the old session store still holds the session")
        }
        transcript.more("the session lifetime was reset: the old store now holds no session")

        let again = try await attempt("log in again") {
            try await authentication.logIn(email: email, password: password)
        }
        let newStore = dependencies.resolveSessionStore()
        guard newStore !== store, newStore.session?.token == again.token else {
            throw StepFailed(step: "log in again", reason: "the new session did not get a new session store")
        }
        transcript.step(7, "Log in again", "a new session store holds the new session; the old one stays empty")
        try await attempt("log out again") { try await authentication.logOut(again) }
    }

    /// The swap: the same worker code against a container scoped to this block, in which the
    /// network is gone. One override (`resolveHTTPService()`) cascades into the worker; the
    /// cache resolves are still `AppDependency`'s, so the screen falls back to what step 4 cached.
    private func offline(token: Secret, expecting everyone: [User]) async throws(StepFailed)
        -> Diagnostics.ResolutionGraph
    {
        guard let online = dependencies as? AppDependency else {
            throw StepFailed(step: "go offline", reason: "the installed container is not an AppDependency")
        }
        let (fetched, cached, resolved) = await withDependencies(OfflineDependency(from: online)) {
            let (users, resolved) = Diagnostics.trace { dependencies.resolveUsersWorker() }
            let fetched: Result<[User], UsersError>
            do throws(UsersError) {
                fetched = .success(try await users.fetchAll(token: token))
            } catch {
                fetched = .failure(error)
            }
            return (fetched, await users.cachedAll(), resolved)
        }
        transcript.step(
            5,
            "Offline",
            "withDependencies(OfflineDependency(from: app)) { … }: resolveHTTPService() swapped"
        )
        transcript.more(
            "cascade: " + Transcript.cascade(resolved.path(from: "resolveUsersWorker()", to: "resolveHTTPService()")))
        switch fetched {
        case .failure(.http(let error)) where error == OfflineHTTPService.failure:
            transcript.more("fetching users: \(error)", mark: "✗")
        case .failure(let error):
            throw StepFailed(step: "fetch users offline", reason: "expected the offline failure, got: \(error)")
        case .success:
            throw StepFailed(step: "fetch users offline", reason: "the request reached the server")
        }
        guard let cached, cached == everyone else {
            throw StepFailed(step: "read the cache offline", reason: "the cache did not hold step 4's users")
        }
        transcript.more("from the cache: \(cached.count == 1 ? "1 user" : "\(cached.count) users"), as of step 4")
        transcript.more("after the block: \(type(of: dependencies)) again")
        return resolved
    }

    /// Runs one step; AppCore's typed errors describe themselves without secrets.
    private func attempt<T>(_ step: String, _ body: () async throws -> T) async throws(StepFailed) -> T {
        do {
            return try await body()
        } catch {
            throw StepFailed(step: step, reason: String(describing: error))
        }
    }
}
