// snippet: readme-quick-start
import DependencyKit
import Foundation

// 1. Your dependencies, as protocols and small immutable values.
protocol Clock: Sendable {
    func hour() -> Int
}

struct SystemClock: Clock {
    func hour() -> Int { Calendar.current.component(.hour, from: Date()) }
}

struct Greeter: Sendable {
    let clock: any Clock

    func greeting(for name: String) -> String {
        clock.hour() < 12 ? "Good morning, \(name)!" : "Hello, \(name)!"
    }
}

// 2. The container: a protocol of resolves, and a class that implements every one of them.
//    `live {}` marks what reaches the outside world; `fresh {}` builds a new value each time.
protocol AppDependency: DependencyContainer {
    func resolveClock() -> any Clock
    func resolveGreeter() -> Greeter
}

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
class CoreAppDependency: DependencyContainer, AppDependency, @unchecked Sendable {
    func resolveClock() -> any Clock { live { SystemClock() } }
    func resolveGreeter() -> Greeter { fresh { Greeter(clock: resolveClock()) } }
}

let appInjector = Injector<any AppDependency> { CoreAppDependency() }

// 3. Reach it from anywhere.
protocol HasAppDependencies {}

extension HasAppDependencies {
    var dependencies: any AppDependency { appInjector.dependencies }
}

struct WelcomeViewModel: HasAppDependencies {
    func title(for name: String) -> String {
        dependencies.resolveGreeter().greeting(for: name)
    }
}
// end-snippet
