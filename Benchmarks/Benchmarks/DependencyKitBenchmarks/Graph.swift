import AppCore
import DependencyKit
import Foundation

/// What one resolution of the benchmark graph produces: both workers, each over its own fresh
/// chain of services.
///
/// `AuthenticationWorker` over `AuthenticationNetworkService` over `HTTPService`, and `UsersWorker`
/// over a `UsersNetworkStore` (over its own `HTTPService`) and a `UsersFileCacheStore`. Every way of
/// building it in these benchmarks builds exactly these values, as the same existentials.
struct Graph: Sendable {
    /// The authentication worker.
    let authenticationWorker: any AuthenticationWorkerType
    /// The users worker.
    let usersWorker: any UsersWorkerType
}

/// The users cache directory of every graph here, computed once, the way an app configures it at
/// launch (reading `FileManager.default.temporaryDirectory` costs microseconds on Linux).
let usersCacheDirectory = FileManager.default.temporaryDirectory
    .appendingPathComponent("DependencyKitBenchmarks", isDirectory: true)

/// The graph built by hand: the physical limit every container is compared with.
enum HandWritten {
    @inline(__always)
    static func makeGraph(usersCacheDirectory: URL) -> Graph {
        Graph(
            authenticationWorker: AuthenticationWorker(
                service: AuthenticationNetworkService(httpService: HTTPService(configuration: .default))
            ),
            usersWorker: UsersWorker(
                store: UsersNetworkStore(httpService: HTTPService(configuration: .default)),
                cacheStore: UsersFileCacheStore(directory: usersCacheDirectory)
            )
        )
    }
}

/// The container the AppCore benchmarks install: `CoreDependency` with the cache directory an app
/// would configure, the documented way to customise it.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class BenchmarkDependency: CoreDependency, @unchecked Sendable {
    let usersCacheDirectory: URL

    init(usersCacheDirectory: URL) {
        self.usersCacheDirectory = usersCacheDirectory
        super.init()
    }

    override func resolveUsersCacheDirectory() -> URL { usersCacheDirectory }
}

/// `BenchmarkDependency` with one `HTTPService` per container, through the engine's `shared { }`.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class SharedHTTPBenchmarkDependency: CoreDependency, @unchecked Sendable {
    let usersCacheDirectory: URL

    init(usersCacheDirectory: URL) {
        self.usersCacheDirectory = usersCacheDirectory
        super.init()
    }

    override func resolveUsersCacheDirectory() -> URL { usersCacheDirectory }
    override func resolveHTTPService() -> any HTTPServiceType {
        // Stored as the existential, the resolve's declared type: built once, never boxed again.
        shared { HTTPService(configuration: resolveHTTPConfiguration()) }
    }
}

/// `BenchmarkDependency` with one `HTTPService` made in `init` and kept in a `let`: the floor any
/// shared lifetime can reach.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class StoredHTTPBenchmarkDependency: CoreDependency, @unchecked Sendable {
    let usersCacheDirectory: URL
    let httpService: any HTTPServiceType

    init(usersCacheDirectory: URL) {
        self.usersCacheDirectory = usersCacheDirectory
        httpService = HTTPService(configuration: .default)
        super.init()
    }

    override func resolveUsersCacheDirectory() -> URL { usersCacheDirectory }
    override func resolveHTTPService() -> any HTTPServiceType { httpService }
}

/// An app's own container protocol on top of AppCore's, read through `dependencies(as:)` as the
/// app-dependencies recipe does.
protocol BenchmarkAppDependencies: Dependency {
    func resolveGreeting() -> String
}

// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class BenchmarkAppDependency: CoreDependency, BenchmarkAppDependencies, @unchecked Sendable {
    let usersCacheDirectory: URL

    init(usersCacheDirectory: URL) {
        self.usersCacheDirectory = usersCacheDirectory
        super.init()
    }

    override func resolveUsersCacheDirectory() -> URL { usersCacheDirectory }
    func resolveGreeting() -> String { "hello" }
}

protocol HasBenchmarkAppDependencies {}

extension HasBenchmarkAppDependencies {
    var dependencies: any BenchmarkAppDependencies {
        DependencyInjector.dependencies(as: (any BenchmarkAppDependencies).self)
    }
}

struct AppGraphConsumer: HasBenchmarkAppDependencies {
    @inline(__always)
    func resolveGraph() -> Graph {
        Graph(
            authenticationWorker: dependencies.resolveAuthenticationWorker(),
            usersWorker: dependencies.resolveUsersWorker()
        )
    }
}

/// A type that reaches the container the way app code does.
struct GraphConsumer: HasDependencies {
    @inline(__always)
    func resolveGraph() -> Graph {
        Graph(
            authenticationWorker: dependencies.resolveAuthenticationWorker(),
            usersWorker: dependencies.resolveUsersWorker()
        )
    }
}
