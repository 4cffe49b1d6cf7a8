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
    func makeAnalytics() -> any Analytics { NoAnalytics() }
}

extension AppDependencies where Self: PartialContainer {
    func resolveAnalytics() -> any Analytics { fresh { makeAnalytics() } }
}
// end-snippet

// snippet: multi-module-class
class AppDependency: CoreDependency, AppDependencies, @unchecked Sendable {
    func resolveAnalytics() -> any Analytics { fresh { makeAnalytics() } }

    override func resolveUsersCacheDirectory() -> URL {
        live { FileManager.default.temporaryDirectory.appendingPathComponent("MyApp") }
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
        DependencyInjector.setDefault { AppDependency() }
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

    override func resolveAnalytics() -> any Analytics { fresh { analytics } }
    override func resolveHTTPService() -> any HTTPServiceType { fresh { CannedHTTPService() } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("MyAppTests") }
    }
}

@Test(.dependencies(TestAppDependency()))
func signingUpIsTracked() async throws {
    let session = try await SignUpViewModel().signUp(name: "Ada", email: "ada@example.com", password: "correct horse")
    #expect(session.user.name == "Ada")
    let container = try #require(DependencyInjector.dependencies as? TestAppDependency)
    #expect(await container.analytics.events == ["signed-up"])
}
// end-snippet

// snippet: multi-module-second-injector
protocol FeatureDependency: InjectableContainer where Injector == FeatureInjector {
    func resolveAnalytics() -> any Analytics
}

class CoreFeatureDependency: DependencyContainer, FeatureDependency, @unchecked Sendable {
    func resolveAnalytics() -> any Analytics { fresh { NoAnalytics() } }
}

enum FeatureInjector: DependencyInjecting {
    static let storage = ContainerStorage<any FeatureDependency> { CoreFeatureDependency() }
}

protocol HasFeatureDependencies {}

extension HasFeatureDependencies {
    var featureDependencies: any FeatureDependency { FeatureInjector.dependencies }
}
// end-snippet

// snippet: multi-module-second-injector-test
struct CheckoutViewModel: HasAppDependencies, HasFeatureDependencies {
    func checkOut() async { await featureDependencies.resolveAnalytics().track("checked-out") }
}

final class RecordingFeatureDependency: CoreFeatureDependency, @unchecked Sendable {
    let analytics = RecordingAnalytics()

    override func resolveAnalytics() -> any Analytics { fresh { analytics } }
}

// One trait per injector; each container is scoped to this test alone.
@Test(.dependencies(TestAppDependency()), .dependencies(RecordingFeatureDependency()))
func checkingOutIsTrackedByTheFeaturesOwnAnalytics() async throws {
    await CheckoutViewModel().checkOut()
    let feature = try #require(FeatureInjector.dependencies as? RecordingFeatureDependency)
    let app = try #require(DependencyInjector.dependencies as? TestAppDependency)
    #expect(await feature.analytics.events == ["checked-out"])
    #expect(await app.analytics.events == [])
}
// end-snippet

@Suite struct MultiModuleAppsTests {
    // Reads the app's production cache directory, a live leaf, on purpose.
    @Test(.dependencies(AppDependency()), .allowsLiveDependencies)
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
            func resolveAnalytics() -> any Analytics { fresh { RecordingAnalytics() } }
        }
        withDependencies(LoudFeatureDependency()) {
            #expect(FeatureInjector.dependencies.resolveAnalytics() is RecordingAnalytics)
            #expect(!(DependencyInjector.dependencies is AppDependency))
        }
        #expect(FeatureInjector.dependencies.resolveAnalytics() is NoAnalytics)
    }
}
