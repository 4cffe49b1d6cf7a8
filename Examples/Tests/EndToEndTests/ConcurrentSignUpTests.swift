import AppCore
import Foundation
import Testing
import UsersAPI

@Suite struct ConcurrentSignUpTests {
    @Test func racingSignUpsWithOneEmailCreateExactlyOneAccount() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let authentication = container.resolveAuthenticationWorker()
            let outcomes = await withTaskGroup(of: Result<Session, AuthenticationError>.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do throws(AuthenticationError) {
                            return .success(
                                try await authentication.signUp(
                                    name: "Racer \(index)",
                                    email: "race@example.com",
                                    password: Secret("password-\(index)")
                                )
                            )
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.compactMap { try? $0.get() }
            #expect(winners.count == 1)
            #expect(outcomes.filter { $0 == .failure(.emailAlreadyRegistered) }.count == 19)
            let users = try await container.resolveUsersWorker().fetchAll(token: try #require(winners.first).token)
            #expect(users.count == 1)
        }
    }

    @Test func manyUsersSignUpAtOnceAndAllAreListed() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let authentication = container.resolveAuthenticationWorker()
            let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
                for index in 0..<25 {
                    group.addTask {
                        try await authentication.signUp(
                            name: "User \(index)",
                            email: "user\(index)@example.com",
                            password: Secret("password-\(index)")
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let listed = try await container.resolveUsersWorker().fetchAll(token: sessions[0].token)
            #expect(Set(listed) == Set(sessions.map(\.user)))
        }
    }
}
