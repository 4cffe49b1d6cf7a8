import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of MultiModuleApps.md. This test target stands in for the app module: it sees
// AppCore only through AppCore's public API, as an app would.

// snippet: multi-module-analytics
protocol Analytics: Sendable {
    func track(_ event: String) async
}

struct NoAnalytics: Analytics {
    func track(_ event: String) async {}
}
// end-snippet

// snippet: multi-module-protocol
protocol AppDependencies: Dependency {
    func resolveAnalytics() -> any Analytics
}

extension AppDependencies {
    func resolveAnalytics() -> any Analytics { NoAnalytics() }
}
// end-snippet

// snippet: multi-module-class
class AppDependency: CoreDependency, AppDependencies, @unchecked Sendable {
    // Declared here too, so that subclasses can override it.
    func resolveAnalytics() -> any Analytics { NoAnalytics() }

    override func resolveUsersCacheDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("MyApp")
    }
}
// end-snippet

// snippet: multi-module-has
protocol HasAppDependencies {}

extension HasAppDependencies {
    var dependencies: any AppDependencies {
        DependencyInjector.dependencies(as: (any AppDependencies).self)
    }
}
// end-snippet

enum MultiModuleLaunch {
    // snippet: multi-module-launch
    static func applicationDidFinishLaunching() {
        DependencyInjector.storage.setDefault { AppDependency() }
    }
    // end-snippet
}

// snippet: multi-module-consumer
struct SignUpViewModel: HasAppDependencies {
    func signUp(name: String, email: String, password: String) async throws -> Session {
        let session = try await dependencies.resolveAuthenticationWorker()
            .signUp(name: name, email: email, password: Secret(password))
        await dependencies.resolveAnalytics().track("signed-up")
        return session
    }
}
// end-snippet

// snippet: multi-module-test
actor RecordingAnalytics: Analytics {
    private(set) var events: [String] = []

    func track(_ event: String) async { events.append(event) }
}

final class TestAppDependency: AppDependency, @unchecked Sendable {
    let analytics = RecordingAnalytics()

    override func resolveAnalytics() -> any Analytics { analytics }
    override func resolveHTTPService() -> any HTTPServiceType { CannedHTTPService() }
}

@Test func signingUpIsTracked() async throws {
    let container = TestAppDependency()
    let session = try await withDependencies(container) {
        try await SignUpViewModel().signUp(name: "Ada", email: "ada@example.com", password: "correct horse")
    }
    #expect(session.user.name == "Ada")
    #expect(await container.analytics.events == ["signed-up"])
}
// end-snippet

// snippet: multi-module-second-injector
protocol FeatureDependency: InjectableContainer where Injector == FeatureInjector {
    func resolveAnalytics() -> any Analytics
}

final class CoreFeatureDependency: DependencyContainer, FeatureDependency, @unchecked Sendable {
    func resolveAnalytics() -> any Analytics { NoAnalytics() }
}

enum FeatureInjector: DependencyInjecting {
    static let storage = ContainerStorage<any FeatureDependency> { CoreFeatureDependency() }
}
// end-snippet

@Suite struct MultiModuleAppsTests {
    @Test(.dependencies(AppDependency()))
    func appTypesSeeAppCoreAndAppResolvesThroughOneTypedContainer() {
        struct Probe: HasAppDependencies {}
        #expect(Probe().dependencies.resolveAnalytics() is NoAnalytics)
        #expect(Probe().dependencies.resolveUsersCacheDirectory().lastPathComponent == "MyApp")
    }

    @Test(.dependencies(AppDependency()))
    func appCoreTypesSeeTheSameAppContainer() {
        struct CoreProbe: HasDependencies {}
        #expect(CoreProbe().dependencies is AppDependency)
    }

    @Test func aSecondInjectorIsIndependentOfAppCores() {
        final class LoudFeatureDependency: DependencyContainer, FeatureDependency, @unchecked Sendable {
            func resolveAnalytics() -> any Analytics { RecordingAnalytics() }
        }
        withDependencies(LoudFeatureDependency()) {
            #expect(FeatureInjector.dependencies.resolveAnalytics() is RecordingAnalytics)
            #expect(!(DependencyInjector.dependencies is AppDependency))
        }
        #expect(FeatureInjector.dependencies.resolveAnalytics() is NoAnalytics)
    }
}
