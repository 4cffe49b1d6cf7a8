import AppCore
import Foundation

/// The story the demo tells, written the way an app's screens would: workers come from
/// `dependencies`, never constructed by hand.
struct DemoFlow: HasDependencies {
    let transcript: Transcript
    let signUpExtraUser: Bool

    /// A step that failed, with its typed error's description (which never holds a secret).
    struct StepFailed: Error, CustomStringConvertible {
        let step: String
        let reason: String
        var description: String { "\(step): \(reason)" }
    }

    func run() async throws(StepFailed) {
        let authentication = dependencies.resolveAuthenticationWorker()
        let users = dependencies.resolveUsersWorker()
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

        try await attempt("log out") { try await authentication.logOut(session) }
        try await attempt("clear the cache") { try await users.clearCache() }
        transcript.step(5, "Log out", "token revoked, cache cleared")
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
