import AppCore
import DependencyKit
import DependencyKitTesting
import ForecastKit
import Testing

@testable import ConsumerCheck

// Tests in a module whose default isolation is MainActor: the suite, its tests and the trait's
// containers all compile without isolation annotations.

// snippet: concurrency-test
@Suite(.dependencies(FrostScreenDependency()))
struct ForecastScreenModelTests {
    @Test func showsAColdForecast() async {
        let model = ForecastScreenModel()
        await model.load()
        #expect(model.summary == "Cold")
        #expect(model.headline == "-3 °C outside")
    }

    @Test(.dependencies(MildScreenDependency()))
    func showsAMildForecast() async {
        let model = ForecastScreenModel()
        await model.load()
        #expect(model.summary == "Mild")
    }
}
// end-snippet

@Suite struct SettingsDependencyTests {
    @Test(.dependencies(DarkThemeDependency()))
    func theDoublesThemeReachesTheMainActorViewModel() async {
        #expect(await settingsInjector.dependencies.resolveSettingsViewModel().theme.name == "Dark")
    }

    @Test(.dependencies(DarkThemeDependency()))
    func asyncResolvesCanBeCalledFromADetachedTaskThatCapturedTheTestsScope() async {
        let context = DependencyContainer.Context.capture()
        let theme = await Task.detached { await context.run { await settingsInjector.dependencies.resolveTheme() } }
            .value
        #expect(theme.name == "Dark")
    }
}

@Suite struct UsersListViewModelTests {
    @Test(.dependencies(OnlineAppCoreDependency()))
    func listsUsersThroughHasDependencies() async {
        let model = UsersListViewModel()
        await model.load(token: Secret("token"))
        #expect(model.names == ["Ada"])
    }
}
