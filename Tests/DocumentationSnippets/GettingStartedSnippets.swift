import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of GettingStarted.md in a module without default isolation: the container's plain
// spelling. The rest of the article's code is compiled verbatim, under default MainActor
// isolation, in IntegrationTests/ConsumerCheck/Sources/ConsumerCheck/GettingStarted.swift; this copy keeps it
// running in `swift test`.

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

// snippet: getting-started-container
protocol GreetingDependency: DependencyContainer {
    func resolveClock() -> any Clock
    func resolveGreeter() -> any Greeter
}

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
class CoreGreetingDependency: DependencyContainer, GreetingDependency, @unchecked Sendable {
    func resolveClock() -> any Clock { live { SystemClock() } }
    func resolveGreeter() -> any Greeter { fresh { TimeOfDayGreeter(clock: resolveClock()) } }
}

let greetingInjector = Injector<any GreetingDependency> { CoreGreetingDependency() }

protocol HasGreetingDependencies {}

extension HasGreetingDependencies {
    var dependencies: any GreetingDependency { greetingInjector.dependencies }
}
// end-snippet

struct WelcomeViewModel: HasGreetingDependencies {
    func title(for name: String) -> String {
        dependencies.resolveGreeter().greeting(for: name)
    }
}

struct FixedClock: Clock {
    let fixedHour: Int

    func hour() -> Int { fixedHour }
}

// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class EveningDependency: CoreGreetingDependency, @unchecked Sendable {
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 20) } }
}

enum GettingStartedLaunch {
    static func applicationDidFinishLaunching() {
        greetingInjector.dependencies = EveningDependency()
    }
}

@Suite struct WelcomeViewModelTests {
    @Test(.dependencies(EveningDependency()))
    func greetsInTheEvening() {
        #expect(WelcomeViewModel().title(for: "Ada") == "Good evening, Ada!")
    }

    @Test func greetsInTheMorningInsideAScope() {
        final class MorningDependency: CoreGreetingDependency, @unchecked Sendable {
            override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
        }
        withDependencies(MorningDependency()) {
            #expect(WelcomeViewModel().title(for: "Ada") == "Good morning, Ada!")
        }
    }
}

/// Installing a global container changes what every unscoped reader sees, so this suite runs
/// its tests one at a time and puts the default back.
@Suite(.serialized, .allowsGlobalInstalls) struct GettingStartedGlobalTests {
    @Test func installingAtLaunchChangesWhatEveryReaderGets() {
        GettingStartedLaunch.applicationDidFinishLaunching()
        defer { greetingInjector.reset() }
        #expect(WelcomeViewModel().title(for: "Grace") == "Good evening, Grace!")
        #expect(greetingInjector.dependencies is EveningDependency)
    }

    @Test func resetServesTheDefaultContainerAgain() {
        greetingInjector.dependencies = EveningDependency()
        greetingInjector.reset()
        #expect(greetingInjector.dependencies is CoreGreetingDependency)
        #expect(!(greetingInjector.dependencies is EveningDependency))
    }
}
