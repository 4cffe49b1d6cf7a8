import AppCore
import DependencyKit
import DependencyKitTesting
import Testing

@testable import ConsumerCheck

// Tests in a module whose default isolation is MainActor: the suite, its tests and the trait's
// containers all compile without isolation annotations.

// snippet: concurrency-test
@Suite(.dependencies(OnlineAppDependency()))
struct ProfileViewModelTests {
    @Test func loadsTheSignedInUser() async {
        let model = ProfileViewModel()
        await model.load(token: Secret("token"))
        #expect(model.title == "Ada")
    }

    @Test(.dependencies(OfflineAppDependency()))
    func showsOfflineWhenTheNetworkIsDown() async {
        let model = ProfileViewModel()
        await model.load(token: Secret("token"))
        #expect(model.title == "Offline")
        #expect(model.greeting == "Welcome")
    }
}
// end-snippet

@Suite struct SettingsDependencyTests {
    @Test(.dependencies(DarkThemeDependency()))
    func theDoublesThemeReachesTheMainActorViewModel() async {
        #expect(await SettingsInjector.dependencies.resolveSettingsViewModel().theme.name == "Dark")
    }

    @Test(.dependencies(DarkThemeDependency()))
    func asyncResolvesCanBeCalledFromADetachedTaskThatCapturedTheTestsScope() async {
        let context = DependencyContext.capture()
        let theme = await Task.detached { await context.run { await SettingsInjector.dependencies.resolveTheme() } }
            .value
        #expect(theme.name == "Dark")
    }
}

@Suite struct UsersListViewModelTests {
    @Test(.dependencies(OnlineAppDependency()))
    func listsUsersThroughHasDependencies() async {
        let model = UsersListViewModel()
        await model.load(token: Secret("token"))
        #expect(model.names == ["Ada"])
    }
}
