import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The recipe for an app that adds its own dependencies on top of AppCore's.

protocol Greeter: Sendable {
    func greet(_ user: User) -> String
}

struct PoliteGreeter: Greeter {
    let salutation: String
    func greet(_ user: User) -> String { "\(salutation), \(user.name)!" }
}

protocol AppDependencies: Dependency {
    func resolveSalutation() -> String
    func resolveGreeter() -> any Greeter
}

extension AppDependencies {
    func resolveSalutation() -> String { "Hello" }
    func resolveGreeter() -> any Greeter { PoliteGreeter(salutation: resolveSalutation()) }
}

class AppDependency: CoreDependency, AppDependencies, @unchecked Sendable {
    func resolveSalutation() -> String { "Welcome" }
    func resolveGreeter() -> any Greeter { PoliteGreeter(salutation: resolveSalutation()) }
}

protocol HasAppDependencies {}

extension HasAppDependencies {
    var dependencies: any AppDependencies { DependencyInjector.dependencies(as: (any AppDependencies).self) }
}

/// An app type that uses both AppCore's resolves and the app's own, with no cast in sight.
struct WelcomeViewModel: HasAppDependencies {
    func welcome(_ user: User) -> String { dependencies.resolveGreeter().greet(user) }
    func usersWorker() -> any UsersWorkerType { dependencies.resolveUsersWorker() }
}

private final class TestAppDependency: AppDependency, @unchecked Sendable {
    override func resolveSalutation() -> String { "Howdy" }
    override func resolveHTTPService() -> any HTTPServiceType { fresh { StubHTTPService(marker: "app") } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("DependencyKitTests-\(getpid())") }
    }
}

struct AppDependenciesTests {
    private let ada = User(id: "1", name: "Ada", email: "ada@example.com")

    @Test(.dependencies(AppDependency()))
    func appTypesGetTheAppsOwnResolves() {
        #expect(WelcomeViewModel().welcome(ada) == "Welcome, Ada!")
    }

    @Test(.dependencies(TestAppDependency()))
    func overridesOfAppAndCoreResolvesCascade() async throws {
        let model = WelcomeViewModel()
        #expect(model.welcome(ada) == "Howdy, Ada!")
        let users = try await model.usersWorker().fetchAll(token: Secret("t"))
        #expect(users.map(\.name) == ["Ada"])
    }

    @Test(.dependencies(AppDependency()))
    func appCoreTypesStillSeeTheAppContainer() {
        struct CoreType: HasDependencies {}
        #expect(CoreType().dependencies is AppDependency)
    }
}

struct AppDependenciesMismatchTests {
    @Test func readingAppDependenciesFromACoreOnlyContainerStopsWithAClearMessage() async {
        await #expect(processExitsWith: .failure) {
            withDependencies(CoreDependency()) {
                _ = WelcomeViewModel().welcome(User(id: "1", name: "Ada", email: "ada@example.com"))
            }
        }
    }
}
