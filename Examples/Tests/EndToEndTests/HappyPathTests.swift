import AppCore
import DependencyKit
import Foundation
import Testing
import UsersAPI

@Suite struct HappyPathTests {
    @Test func signUpLogInFetchListAndLogOutThroughTheWorkers() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            // The workers are read through `dependencies`, scoped to this test only.
            try await withDependencies(container) {
                let flow = Flow()
                let signedUp = try await flow.authentication.signUp(
                    name: "  Ada Lovelace ",
                    email: "Ada@Example.com",
                    password: Secret("correct horse battery")
                )
                #expect(signedUp.user.name == "Ada Lovelace")
                #expect(signedUp.user.email == "ada@example.com")

                let session = try await flow.authentication.logIn(
                    email: "ada@example.com",
                    password: Secret("correct horse battery")
                )
                #expect(session.user == signedUp.user)
                #expect(session.token != signedUp.token)

                #expect(await flow.users.cachedCurrent() == nil)
                let me = try await flow.users.fetchCurrent(token: session.token)
                #expect(me == signedUp.user)
                #expect(await flow.users.cachedCurrent() == me)

                let everyone = try await flow.users.fetchAll(token: session.token)
                #expect(everyone == [signedUp.user])
                #expect(await flow.users.cachedAll() == everyone)

                // The log-in revoked the sign-up's session: one live session per account.
                await #expect(throws: UsersError.notAuthenticated) {
                    try await flow.users.fetchCurrent(token: signedUp.token)
                }
                try await flow.authentication.logOut(session)
                await #expect(throws: UsersError.notAuthenticated) {
                    try await flow.users.fetchCurrent(token: session.token)
                }
            }
        }
    }

    @Test func listingShowsEveryAccountInSignUpOrder() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let authentication = container.resolveAuthenticationWorker()
            let ada = try await authentication.signUp(
                name: "Ada",
                email: "ada@example.com",
                password: Secret("password-1")
            )
            let grace = try await authentication.signUp(
                name: "Grace",
                email: "grace@example.com",
                password: Secret("password-2")
            )
            let users = try await container.resolveUsersWorker().fetchAll(token: grace.token)
            #expect(users == [ada.user, grace.user])
        }
    }

    @Test func twoServersInOneProcessKeepTheirOwnUsers() async throws {
        try await withUsersServer { first in
            try await withUsersServer { second in
                let one = TestAppDependency(baseURL: first.baseURL)
                let two = TestAppDependency(baseURL: second.baseURL)
                let session = try await one.resolveAuthenticationWorker()
                    .signUp(name: "Ada", email: "ada@example.com", password: Secret("password-1"))
                // The same email is free on the other server: its container has its own repository.
                let other = try await two.resolveAuthenticationWorker()
                    .signUp(name: "Ada", email: "ada@example.com", password: Secret("password-1"))
                #expect(session.user.id != other.user.id)
                #expect(try await two.resolveUsersWorker().fetchAll(token: other.token) == [other.user])
            }
        }
    }
}

/// What a screen would hold: workers from `dependencies`.
private struct Flow: HasDependencies {
    let authentication: any AuthenticationWorkerType
    let users: any UsersWorkerType

    init() {
        authentication = Self.dependencies.resolveAuthenticationWorker()
        users = Self.dependencies.resolveUsersWorker()
    }
}
