import DependencyKit
import Foundation

// The code of GettingStarted.md, verbatim, in a module whose default isolation is MainActor (the
// default of new app targets): the container class and the injector say `nonisolated`, nothing
// else does. Scripts/check-snippets.py keeps the article in sync with this file.

// snippet: getting-started-domain

protocol Clock: Sendable {
    func hour() -> Int
}

struct SystemClock: Clock {
    func hour() -> Int { Calendar.current.component(.hour, from: Date()) }
}

protocol Greeter: Sendable {
    func greeting(for name: String) -> String
}

struct TimeOfDayGreeter: Greeter {
    let clock: any Clock

    func greeting(for name: String) -> String {
        switch clock.hour() {
        case ..<12: "Good morning, \(name)!"
        case ..<18: "Good afternoon, \(name)!"
        default: "Good evening, \(name)!"
        }
    }
}
// end-snippet

// snippet: getting-started-container-main-actor
nonisolated protocol GreetingDependency: DependencyContainer {
    func resolveClock() -> any Clock
    func resolveGreeter() -> any Greeter
}

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
class CoreGreetingDependency: DependencyContainer, GreetingDependency, @unchecked Sendable {
    func resolveClock() -> any Clock { live { SystemClock() } }
    func resolveGreeter() -> any Greeter { fresh { TimeOfDayGreeter(clock: resolveClock()) } }
}

nonisolated let greetingInjector = Injector<any GreetingDependency> { CoreGreetingDependency() }

protocol HasGreetingDependencies {}

extension HasGreetingDependencies {
    var dependencies: any GreetingDependency { greetingInjector.dependencies }
}
// end-snippet

// snippet: getting-started-view-model
struct WelcomeViewModel: HasGreetingDependencies {
    func title(for name: String) -> String {
        dependencies.resolveGreeter().greeting(for: name)
    }
}
// end-snippet

// snippet: getting-started-override
struct FixedClock: Clock {
    let fixedHour: Int

    func hour() -> Int { fixedHour }
}

// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class EveningDependency: CoreGreetingDependency, @unchecked Sendable {
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 20) } }
}
// end-snippet

enum GettingStartedLaunch {
    // snippet: getting-started-install
    static func applicationDidFinishLaunching() {
        greetingInjector.dependencies = EveningDependency()
    }
    // end-snippet
}
