import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The README's quick start, as a reader writes it: `live { SystemClock() }` in a resolve declared
// `-> any Clock`. Every builder builds the declared type, so one `.override` line with any clock
// answers the resolve, whatever the body looks like.

protocol DeclaredClock: Sendable {
    func hour() -> Int
}

struct DeclaredSystemClock: DeclaredClock {
    func hour() -> Int { Calendar.current.component(.hour, from: Date()) }
}

struct DeclaredFixedClock: DeclaredClock {
    let fixedHour: Int

    func hour() -> Int { fixedHour }
}

/// A class, for `weakShared {}`.
final class DeclaredSystemClockObject: DeclaredClock {
    func hour() -> Int { Calendar.current.component(.hour, from: Date()) }
}

struct DeclaredGreeter: Sendable {
    let clock: any DeclaredClock

    func greeting(for name: String) -> String {
        clock.hour() < 12 ? "Good morning, \(name)!" : "Hello, \(name)!"
    }
}

private let declaredScope = Lifetime("declared")

protocol DeclaredAppDependency: DependencyContainer {
    func resolveClock() -> any DeclaredClock
    func resolveGreeter() -> DeclaredGreeter
    func resolveFreshClock() -> any DeclaredClock
    func resolveSharedClock() -> any DeclaredClock
    func resolveWeakSharedClock() -> any DeclaredClock
    func resolveScopedClock() -> any DeclaredClock
    func resolvePerGraphClock() -> any DeclaredClock
    func resolveTryClock() -> any DeclaredClock
    func resolveReturningClock() -> any DeclaredClock
    func resolveThrowingClock() throws -> any DeclaredClock
    func resolveAsyncClock() async -> any DeclaredClock
    func resolveAsyncSharedClock() async -> any DeclaredClock
}

class CoreDeclaredAppDependency: DependencyContainer, DeclaredAppDependency, @unchecked Sendable {
    let useFixedFallback: Bool

    init(useFixedFallback: Bool = false) {
        self.useFixedFallback = useFixedFallback
    }

    // The README's lines.
    func resolveClock() -> any DeclaredClock { live { DeclaredSystemClock() } }
    func resolveGreeter() -> DeclaredGreeter { fresh { DeclaredGreeter(clock: resolveClock()) } }

    // Each builder, with a body of `let`s, `if`/`else`, `switch`, statements or `try`.
    func resolveFreshClock() -> any DeclaredClock {
        fresh {
            let clock = DeclaredSystemClock()
            clock
        }
    }
    func resolveSharedClock() -> any DeclaredClock {
        shared {
            if useFixedFallback { DeclaredFixedClock(fixedHour: 0) } else { DeclaredSystemClock() }
        }
    }
    func resolveWeakSharedClock() -> any DeclaredClock { weakShared { DeclaredSystemClockObject() } }
    func resolveScopedClock() -> any DeclaredClock {
        shared(in: declaredScope) {
            switch useFixedFallback {
            case true: DeclaredFixedClock(fixedHour: 0)
            case false: DeclaredSystemClock()
            }
        }
    }
    func resolvePerGraphClock() -> any DeclaredClock {
        perGraph {
            _ = resolveGreeter()
            DeclaredSystemClock()
        }
    }
    func resolveTryClock() -> any DeclaredClock {
        live {
            let connected = try? Self.connect()
            connected ?? DeclaredSystemClock()
        }
    }
    // Statements with `return`, like any closure: also the declared type.
    func resolveReturningClock() -> any DeclaredClock {
        fresh {
            guard !useFixedFallback else { return DeclaredFixedClock(fixedHour: 0) }
            return DeclaredSystemClock()
        }
    }
    func resolveThrowingClock() throws -> any DeclaredClock {
        try live {
            let clock = try Self.connect()
            clock
        }
    }
    func resolveAsyncClock() async -> any DeclaredClock {
        await live {
            await Task.yield()
            DeclaredSystemClock()
        }
    }
    func resolveAsyncSharedClock() async -> any DeclaredClock {
        await shared {
            await Task.yield()
            DeclaredSystemClock()
        }
    }

    static func connect() throws -> DeclaredSystemClock { DeclaredSystemClock() }
}

let declaredAppInjector = Injector<any DeclaredAppDependency> { CoreDeclaredAppDependency() }

private var dependencies: any DeclaredAppDependency { declaredAppInjector.dependencies }

private let nine = DeclaredFixedClock(fixedHour: 9)

@Suite struct DeclaredTypeOverrideTests {
    @Test(
        .dependencies(
            CoreDeclaredAppDependency(), .override({ $0.resolveClock() }, with: DeclaredFixedClock(fixedHour: 9))))
    func theQuickStartsLiveClockIsOverriddenInOneLineAndTheGreeterFollows() {
        #expect(dependencies.resolveGreeter().greeting(for: "Ada") == "Good morning, Ada!")
        #expect(dependencies.resolveClock() is DeclaredFixedClock)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolveFreshClock() }, with: nine)))
    func freshWithALetIsOverriddenInOneLine() {
        #expect(dependencies.resolveFreshClock().hour() == 9)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolveSharedClock() }, with: nine)))
    func sharedWithAnIfIsOverriddenInOneLine() {
        #expect(dependencies.resolveSharedClock().hour() == 9)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolveWeakSharedClock() }, with: nine)))
    func weakSharedIsOverriddenInOneLineWithAValueOfAnotherType() {
        #expect(dependencies.resolveWeakSharedClock().hour() == 9)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolveScopedClock() }, with: nine)))
    func scopedWithASwitchIsOverriddenInOneLine() {
        #expect(dependencies.resolveScopedClock().hour() == 9)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolvePerGraphClock() }, with: nine)))
    func perGraphWithAStatementIsOverriddenInOneLine() {
        #expect(dependencies.resolvePerGraphClock().hour() == 9)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolveTryClock() }, with: nine)))
    func liveWithTryIsOverriddenInOneLine() {
        #expect(dependencies.resolveTryClock().hour() == 9)
    }

    @Test(.dependencies(CoreDeclaredAppDependency(), .override({ $0.resolveReturningClock() }, with: nine)))
    func aBodyWithGuardAndReturnIsOverriddenInOneLine() {
        #expect(dependencies.resolveReturningClock().hour() == 9)
    }

    @Test func aScopeOverridesTheQuickStartsClockInOneLineToo() {
        let greeting = withDependencies(CoreDeclaredAppDependency(), .override({ $0.resolveClock() }, with: nine)) {
            dependencies.resolveGreeter().greeting(for: "Ada")
        }
        #expect(greeting == "Good morning, Ada!")
    }

    // `.override` selects synchronous, non-throwing resolves; what the throwing and `async` builders
    // build is what the trace records.
    @Test(.allowsLiveDependencies)
    func everyBuilderBuildsTheDeclaredTypeNotTheBodys() async throws {
        let container = CoreDeclaredAppDependency()
        let (_, graph) = try await Diagnostics.trace { () async throws -> Void in
            _ = container.resolveClock()
            _ = container.resolveFreshClock()
            _ = container.resolveSharedClock()
            _ = container.resolveWeakSharedClock()
            _ = container.resolveScopedClock()
            _ = container.resolvePerGraphClock()
            _ = container.resolveTryClock()
            _ = container.resolveReturningClock()
            _ = try container.resolveThrowingClock()
            _ = await container.resolveAsyncClock()
            _ = await container.resolveAsyncSharedClock()
        }
        let lines = graph.renderText().split(separator: "\n")
        let resolves = [
            "resolveClock()", "resolveFreshClock()", "resolveSharedClock()", "resolveWeakSharedClock()",
            "resolveScopedClock()", "resolvePerGraphClock()", "resolveTryClock()", "resolveReturningClock()",
            "resolveThrowingClock()", "resolveAsyncClock()", "resolveAsyncSharedClock()",
        ]
        for resolve in resolves {
            // `resolveClock() → DeclaredSystemClock as DeclaredClock`: the value, and the type built.
            let line = lines.first { $0.contains("\(resolve) → ") }
            #expect(line?.contains(" as DeclaredClock [") == true, "\(resolve): \(lines)")
        }
    }
}
