import AppCore
import DependencyKit
import ForecastKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the app's flows under default MainActor isolation and exits non-zero if one misbehaves.
@main
enum Main {
    static func main() async {
        forecastInjector.setDefault { ForecastScreenDependency() }
        var failures: [String] = []
        func check(_ condition: Bool, _ what: String) {
            print(condition ? "ok  " : "FAIL", what)
            if !condition { failures.append(what) }
        }

        // snippet: concurrency-with-dependencies
        let frost = FrostScreenDependency()
        let model = await withDependencies(frost) {
            let model = forecastInjector.dependencies(as: (any ForecastScreenDependencies).self)
                .resolveForecastScreenModel()
            await model.load()
            return model
        }
        // end-snippet
        check(
            model.summary == "Cold",
            "a @MainActor screen model reads the forecaster through HasForecastScreenDependencies")
        check(model.headline == "-3 °C outside", "an async resolve reads the overridden thermometer")

        let balcony = ForecastScreenModel()
        await balcony.load()
        check(balcony.summary == "Cold", "the app's default container serves the balcony thermometer")

        let app = ForecastScreenDependency()
        let counter = await Task.detached { app.resolveRefreshCounter() }.value
        await app.resolveRefreshCounter().increment()
        check(await counter.count == 1, "a shared instance is one per container, from any thread")

        let screen = app.resolveCityScreenFactory().create(payload: "Lisbon")
        check(screen.city == "Lisbon", "a factory creates a main-actor module on the main actor")

        let mild = await withDependencies(MildScreenDependency()) {
            let model = ForecastScreenModel()
            await model.load()
            return model.summary
        }
        check(
            mild == "Mild", "an override in a final subclass (nonisolated, inherited) reaches the library's forecaster")

        let garden = await Task.detached { await GardenForecastDependency().resolveThermometer().celsius() }.value
        check(
            garden == 12,
            "a subclass (nonisolated, inherited) of another module's container resolves off the main actor")

        let names = await withDependencies(OnlineAppCoreDependency()) {
            let list = UsersListViewModel()
            await list.load(token: Secret("token"))
            return list.names
        }
        check(names == ["Ada"], "a @MainActor view model reads AppCore's container through HasDependencies")

        let directory = await Task.detached { CacheDirectoryDependency().resolveUsersCacheDirectory() }.value
        check(
            directory.lastPathComponent == "MyApp",
            "a final subclass (nonisolated, inherited) of AppCore's resolves off the main actor")

        let theme = await settingsInjector.dependencies.resolveSettingsViewModel().theme
        check(theme == Theme(name: "Light"), "a @MainActor async resolve of a container declared with the engine")

        let dark = await withDependencies(DarkThemeDependency()) {
            await settingsInjector.dependencies.resolveSettingsViewModel().theme
        }
        check(dark == Theme(name: "Dark"), "a test double's resolve cascades into a @MainActor resolve")

        let fromAnotherThread = await Task.detached {
            await settingsInjector.dependencies.resolveTheme()
        }.value
        check(fromAnotherThread == Theme(name: "Light"), "async resolves run off the main actor")

        GettingStartedLaunch.applicationDidFinishLaunching()
        check(
            WelcomeViewModel().title(for: "Ada") == "Good evening, Ada!",
            "Getting Started's container, installed at launch")
        let greeter = await Task.detached { greetingInjector.dependencies.resolveGreeter() }.value
        check(
            greeter.greeting(for: "Ada") == "Good evening, Ada!",
            "Getting Started's container resolves off the main actor")
        greetingInjector.reset()

        print(failures.isEmpty ? "consumer-check: all flows passed" : "consumer-check: \(failures.count) failed")
        if !failures.isEmpty { exit(1) }
    }
}
