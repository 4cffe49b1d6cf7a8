import Testing

@testable import DependencyKit
@testable import DependencyKitTesting

// Issue 48, rows 2 and 3 on the testing side: a trait's override scopes never trip the rebuild warning,
// and the guard's suggested test line compiles for a container whose `init` takes arguments.

protocol RequestNotesDependencyProtocol: DependencyContainer {
    func resolveUser() -> String
    func resolveStore() -> RequestNoteStore
    func resolveGreeting() -> RequestGreeting
}

final class RequestGreeting: Sendable {
    let user: String
    init(user: String) { self.user = user }
}

final class RequestNoteStore: Sendable {
    let notes = Locked<[String]>([])
}

/// One request's container, made with the request's user: its `init` takes an argument.
final class RequestNotesDependency: DependencyContainer, RequestNotesDependencyProtocol, @unchecked Sendable {
    let user: String
    init(user: String) { self.user = user }
    func resolveUser() -> String { fresh { user } }
    func resolveStore() -> RequestNoteStore { shared { RequestNoteStore() } }
    func resolveGreeting() -> RequestGreeting { appShared { RequestGreeting(user: resolveUser()) } }
}

let requestNotesInjector = Injector<any RequestNotesDependencyProtocol> { RequestNotesDependency(user: "launch") }

@Suite struct PerRequestGuardTests {
    @Test func theGlobalInstallMessageAsksForTheInitsArguments() {
        let found = Locked<[String]>([])
        let context = GuardedTest(container: RequestNotesDependency(user: "test")) { message in
            found.withLock { $0.append(message) }
        }
        context.bind {
            requestNotesInjector.dependencies = RequestNotesDependency(user: "request")
            requestNotesInjector.reset()
        }
        let message = found.withLock { $0 }.first ?? ""
        #expect(message.contains("`@Test(.dependencies(RequestNotesDependency(…)))`"))
        #expect(message.contains("`withDependencies(RequestNotesDependency(…)) { … }`"))
        #expect(message.contains("with what its `init` takes in place of `…`"))
        #expect(!message.contains("RequestNotesDependency()"))
    }

    /// The line the message suggests, with the `init`'s argument in place of `…`.
    @Test(.dependencies(RequestNotesDependency(user: "ada")))
    func theSuggestedTraitCompilesWithTheInitsArguments() {
        #expect(requestNotesInjector.dependencies.resolveUser() == "ada")
    }

    /// Each case has a trait scope with an override, over a container the trait makes for it: three times
    /// the threshold of scopes build the `shared {}` store, and none is reported.
    @Test(
        .dependencies(RequestNotesDependency(user: "t"), .override({ $0.resolveUser() }, with: "overridden")),
        arguments: 0..<(3 * ScopeRebuilds.threshold))
    func aTraitsOverrideScopesAreNeverReportedAsRebuilds(index: Int) {
        requestNotesInjector.dependencies.resolveStore().notes.withLock { $0.append("\(index)") }
        #expect(requestNotesInjector.dependencies.resolveUser() == "overridden")
        #expect(!ScopeRebuilds.written.withLock { $0 }.contains { $0.contains("RequestNotesDependency") })
    }

    /// Writing Tests, "It cascades": an `appShared {}` instance is built with the trait's overrides masked;
    /// overriding its resolve itself is how a test fakes it.
    @Test(.dependencies(RequestNotesDependency(user: "t"), .override({ $0.resolveUser() }, with: "overridden")))
    func aTraitsOverrideDoesNotCascadeIntoAnAppSharedInstance() {
        #expect(requestNotesInjector.dependencies.resolveGreeting().user == "t")
        #expect(requestNotesInjector.dependencies.resolveUser() == "overridden")
    }

    @Test(
        .dependencies(
            RequestNotesDependency(user: "t"), .override({ $0.resolveGreeting() }, with: RequestGreeting(user: "fake")))
    )
    func anOverrideOfTheAppSharedResolveItselfFakesIt() {
        #expect(requestNotesInjector.dependencies.resolveGreeting().user == "fake")
    }
}
