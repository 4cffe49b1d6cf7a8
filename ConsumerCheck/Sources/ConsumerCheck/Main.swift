import AppCore
import DependencyKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the app's flows under default MainActor isolation and exits non-zero if one misbehaves.
@main
enum Main {
    static func main() async {
        // snippet: concurrency-launch
        DependencyInjector.setDefault { AppDependency() }
        // end-snippet
        var failures: [String] = []
        func check(_ condition: Bool, _ what: String) {
            print(condition ? "ok  " : "FAIL", what)
            if !condition { failures.append(what) }
        }

        // snippet: concurrency-with-dependencies
        let online = OnlineAppDependency()
        let model = await withDependencies(online) {
            let model = DependencyInjector.dependencies(as: (any AppDependencies).self).resolveProfileViewModel()
            await model.load(token: Secret("token"))
            await model.load(token: Secret("token"))  // the second greeting reads the cache
            return model
        }
        // end-snippet
        check(model.title == "Ada", "a @MainActor view model loads the user through HasAppDependencies")
        check(model.greeting == "Welcome back, Ada", "an async resolve reads the cache the worker filled")

        let names = await withDependencies(OnlineAppDependency()) {
            let list = UsersListViewModel()
            await list.load(token: Secret("token"))
            return list.names
        }
        check(names == ["Ada"], "a @MainActor view model reads AppCore's container through HasDependencies")

        let app = AppDependency()
        let counter = await Task.detached { app.resolveSignInCounter() }.value
        await app.resolveSignInCounter().increment()
        check(await counter.count == 1, "a shared instance is one per container, from any thread")

        let screen = app.resolveProfileScreenFactory().create(payload: "u1")
        check(screen.userID == "u1", "a factory creates a main-actor module on the main actor")

        let offline = await withDependencies(OfflineAppDependency()) {
            let model = ProfileViewModel()
            await model.load(token: Secret("token"))
            return model.title
        }
        check(offline == "Offline", "an override in a final nonisolated subclass reaches the worker")

        let directory = await Task.detached { CacheDirectoryDependency().resolveUsersCacheDirectory() }.value
        check(directory.lastPathComponent == "MyApp", "a nonisolated final subclass resolves off the main actor")

        let theme = await SettingsInjector.dependencies.resolveSettingsViewModel().theme
        check(theme == Theme(name: "Light"), "a @MainActor async resolve of a container declared with the engine")

        let dark = await withDependencies(DarkThemeDependency()) {
            await SettingsInjector.dependencies.resolveSettingsViewModel().theme
        }
        check(dark == Theme(name: "Dark"), "a test double's resolve cascades into a @MainActor resolve")

        let fromAnotherThread = await Task.detached {
            await SettingsInjector.dependencies.resolveTheme()
        }.value
        check(fromAnotherThread == Theme(name: "Light"), "async resolves run off the main actor")

        GettingStartedLaunch.applicationDidFinishLaunching()
        check(
            WelcomeViewModel().title(for: "Ada") == "Good evening, Ada!",
            "Getting Started's container, installed at launch")
        let greeter = await Task.detached { GreetingInjector.dependencies.resolveGreeter() }.value
        check(
            greeter.greeting(for: "Ada") == "Good evening, Ada!",
            "Getting Started's container resolves off the main actor")
        GreetingInjector.reset()

        print(failures.isEmpty ? "consumer-check: all flows passed" : "consumer-check: \(failures.count) failed")
        if !failures.isEmpty { exit(1) }
    }
}
