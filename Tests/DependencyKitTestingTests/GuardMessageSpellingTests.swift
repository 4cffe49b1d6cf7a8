import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// MARK: - Fixtures

/// Types as an app nests them: what a suggested line must spell in full to compile when pasted.
enum Shelf {
    struct Reader: Sendable { let name: String }
}

struct Box<Value: Sendable>: Sendable { let value: Value }

extension UserDefaults {
    /// As in the port of swift-dependencies-additions: a generic type nested in another module's type.
    struct Dependency<Value: Sendable>: Sendable { let value: Value }
}

extension Shelf.Reader { static let fake = Shelf.Reader(name: "fake") }
extension Box where Value == Shelf.Reader { static var fake: Self { Box(value: .fake) } }
extension UserDefaults.Dependency where Value == String { static var fake: Self { .init(value: "fake") } }

class CoreShelf: DependencyContainer, @unchecked Sendable {
    func resolveReader() -> Shelf.Reader { live { Shelf.Reader(name: "disk") } }
    func resolveBox() -> Box<Shelf.Reader> { live { Box(value: Shelf.Reader(name: "disk")) } }
    func resolveSetting() -> UserDefaults.Dependency<String> { live { UserDefaults.Dependency(value: "stored") } }
}

/// Forgot to override the live leaves.
final class ForgetfulShelf: CoreShelf, @unchecked Sendable {}

/// The guard's suggested lines, pasted with `.fake` in place of `…`: this class compiles, and
/// `everySuggestedLineForANestedOrGenericTypeCompilesWhenPasted` checks each suggestion is one of its lines.
final class PastedShelf: CoreShelf, @unchecked Sendable {
    override func resolveReader() -> Shelf.Reader { fresh { .fake } }
    override func resolveBox() -> Box<Shelf.Reader> { fresh { .fake } }
    override func resolveSetting() -> UserDefaults.Dependency<String> { fresh { .fake } }
}

let shelfInjector = Injector<CoreShelf> { CoreShelf() }

/// A production container whose clock is a live leaf, decorated on purpose by a relative override.
final class ProductionGuard: DependencyContainer, @unchecked Sendable {
    func resolveClock() -> Int { live { 3 } }
}

let productionGuardInjector = Injector<ProductionGuard> { ProductionGuard() }

/// A resolve whose body is a single `return`: it builds a `SystemGuardClock`, which a value override
/// of another clock cannot answer.
final class SingleReturnClockCore: DependencyContainer, @unchecked Sendable {
    func resolveClock() -> any GuardClock { live { return SystemGuardClock() } }
}

private func comments(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined() }

// MARK: - Issue 47, rows 6 and 7: messages that see what the test wrote

@Suite struct GuardMessageSpellingTests {
    @Test(.dependencies(ForgetfulShelf()))
    func everySuggestedLineForANestedOrGenericTypeCompilesWhenPasted() throws {
        withKnownIssue {
            _ = shelfInjector.dependencies.resolveReader()
            _ = shelfInjector.dependencies.resolveBox()
            _ = shelfInjector.dependencies.resolveSetting()
        } matching: { issue in
            comments(of: issue).contains("ForgetfulShelf inherits from CoreShelf")
        }
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        var suggested: [String] = []
        for resolve in ["resolveReader()", "resolveBox()", "resolveSetting()"] {
            let records = TestGuardReporting.recorded(containing: "\(resolve) -> ")
                .filter { $0.message.contains("ForgetfulShelf inherits") }
            #expect(records.count == 1, "\(resolve)")
            let message = records.first?.message ?? ""
            let lines = message.split(separator: "\n").filter { $0.hasPrefix("    override func") }
            #expect(lines.count == 1, "\(message)")
            suggested += lines.map { String($0.dropFirst(4)) }
            // The note speaks of the type the body built, never of a body the resolve does not have.
            #expect(!message.contains("single `return`"), "\(message)")
        }
        #expect(
            suggested == [
                "override func resolveReader() -> Shelf.Reader { fresh { … } }",
                "override func resolveBox() -> Box<Shelf.Reader> { fresh { … } }",
                "override func resolveSetting() -> UserDefaults.Dependency<String> { fresh { … } }",
            ])
        for line in suggested {
            #expect(source.contains("    " + line.replacingOccurrences(of: "…", with: ".fake")), "not pasted: \(line)")
        }
    }

    @Test(.dependencies(PastedShelf()))
    func thePastedLinesAreQuiet() {
        #expect(shelfInjector.dependencies.resolveReader().name == "fake")
        #expect(shelfInjector.dependencies.resolveBox().value.name == "fake")
        #expect(shelfInjector.dependencies.resolveSetting().value == "fake")
    }

    @Test func typesAreWrittenAsTheUserWritesThem() {
        #expect(TestGuard.unqualified("Tests.Shelf.Reader") == "Shelf.Reader")
        #expect(TestGuard.unqualified("Tests.(unknown context at $10a8c).Outer.Reader") == "Outer.Reader")
        #expect(
            TestGuard.unqualified("Swift.Dictionary<Swift.String, Swift.Array<M.Outer.Reader>>")
                == "Dictionary<String, Array<Outer.Reader>>")
        #expect(TestGuard.unqualified("(Swift.Int) -> M.R") == "(Int) -> R")
        #expect(TestGuard.unqualified("M.P & M.Q") == "P & Q")
        #expect(
            TestGuard.unqualified("(extension in M):Foundation.UserDefaults.Dependency<Swift.String>")
                == "UserDefaults.Dependency<String>")
        #expect(TestGuard.unqualified("Any") == "Any")
    }

    /// Decorating the live clock on purpose: the message sees the relative override and names the two
    /// real choices, not the override the test already has.
    @Test(.dependencies(ProductionGuard(), .override({ $0.resolveClock() }) { $0 + 100 }))
    func aLiveLeafTheTestOverridesRelativelyIsToldSo() {
        withKnownIssue {
            #expect(productionGuardInjector.dependencies.resolveClock() == 103)
        } matching: { issue in
            comments(of: issue).contains("resolveClock() -> Int reaches the outside world")
        }
        let records = TestGuardReporting.recorded(containing: "resolveClock() -> Int reaches the outside world")
            .filter { $0.message.contains("ProductionGuard") }
        #expect(records.count == 1)
        #expect(
            records.first?.message == """
                resolveClock() -> Int reaches the outside world (network, disk, clock or randomness), and this \
                test overrides it relatively: `.override({ $0.resolveClock() }) { … }` transforms the value \
                ProductionGuard's `live {}` code serves, so that code ran.
                To keep the test from going live, replace the relative override with a value, in the trait (or `withOverrides`):
                    .override({ $0.resolveClock() }, with: …)
                If this test decorates the live value on purpose (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """)
    }

    @Test(.dependencies(ProductionGuard(), .override({ $0.resolveClock() }) { $0 + 100 }), .allowsLiveDependencies)
    func decoratingTheLiveValueOnPurposeIsQuiet() {
        #expect(productionGuardInjector.dependencies.resolveClock() == 103)
    }
}

// MARK: - Issue 47, rows 2 and 3: a test whose override cannot be answered does not run

@Suite struct UnanswerableOverrideTests {
    @Test func aTestWhoseOverrideTheResolveCannotBuildFailsBeforeItsBodyRuns() async throws {
        let test = try #require(Test.current)
        let ran = Locked(false)
        let trait = DependencyTrait(
            { SingleReturnClockCore() }, overrides: [.override({ $0.resolveClock() }, with: FixedGuardClock(fixed: 9))])
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.withLock { $0 = true } }
        } matching: { issue in
            // The override's message, and the live leaf: finding the resolve ran its body once, since no
            // value of the type it builds was given.
            comments(of: issue).contains("which builds a SystemGuardClock")
                || comments(of: issue).contains("resolveClock() -> SystemGuardClock reaches the outside world")
        }
        #expect(ran.withLock { $0 } == false, "the body ran with the real clock")
        let problems = TestGuardReporting.recorded(containing: "selected resolveClock() of SingleReturnClockCore")
        #expect(problems.count == 1)
    }
}
