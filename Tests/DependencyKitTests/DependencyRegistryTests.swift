import Testing

@testable import DependencyKit

private protocol FriendsProvider: Sendable {
    var user: String { get }
}

private struct DummyFriendsProvider: FriendsProvider {
    let user: String
}

private struct PlistFriendsProvider: FriendsProvider {
    let user = "me, from the plist"
}

private protocol WebServiceType: AnyObject, Sendable {}
private final class WebService: WebServiceType {}

private enum Flavor: Hashable, Sendable {
    case standard
    case premium
}

struct DependencyRegistryTests {
    @Test func registeredInstanceIsSharedByEveryResolve() throws {
        let registry = DependencyRegistry()
        let service = WebService()
        registry.register((any WebServiceType).self, instance: service)
        let first: any WebServiceType = try registry.resolve()
        let second = try registry.resolve((any WebServiceType).self)
        #expect(first === service)
        #expect(second === service)
    }

    @Test func registeredFactoryMakesAFreshValueOnEveryResolve() throws {
        let registry = DependencyRegistry()
        let made = Counter()
        registry.register((any WebServiceType).self) {
            made.increment()
            return WebService()
        }
        let first: any WebServiceType = try registry.resolve()
        let second: any WebServiceType = try registry.resolve()
        #expect(first !== second)
        #expect(made.count == 2)
    }

    @Test func registeredTypeIsInferredFromTheInstanceOrTheFactory() throws {
        let registry = DependencyRegistry()
        registry.register { 5 }
        registry.register(tag: "x") { tag in "made for \(tag?.description ?? "nobody")" }
        registry.register(instance: 2.5)
        let int: Int = try registry.resolve()
        let string: String = try registry.resolve(tag: "x")
        let double: Double = try registry.resolve()
        #expect(int == 5)
        #expect(string == "made for \"x\"")
        #expect(double == 2.5)
    }

    @Test func taggedRegistrationWinsAndOtherTagsFallBackToTheUntaggedOne() throws {
        let registry = DependencyRegistry()
        registry.register((any FriendsProvider).self) { tag in
            DummyFriendsProvider(user: tag?.value(as: String.self) ?? "Jane Doe")
        }
        registry.register((any FriendsProvider).self, tag: "me") { PlistFriendsProvider() }

        let mine: any FriendsProvider = try registry.resolve(tag: "me")
        let bob: any FriendsProvider = try registry.resolve(tag: "bob")
        let anyone: any FriendsProvider = try registry.resolve()
        #expect(mine.user == "me, from the plist")
        #expect(bob.user == "bob")
        #expect(anyone.user == "Jane Doe")
    }

    @Test func enumTagsWork() throws {
        let registry = DependencyRegistry()
        registry.register((any FriendsProvider).self, tag: Flavor.premium, instance: DummyFriendsProvider(user: "gold"))
        registry.register((any FriendsProvider).self, instance: DummyFriendsProvider(user: "plain"))
        let premium: any FriendsProvider = try registry.resolve(tag: Flavor.premium)
        let standard: any FriendsProvider = try registry.resolve(tag: Flavor.standard)
        #expect(premium.user == "gold")
        #expect(standard.user == "plain")
    }

    @Test func tagsOfDifferentTypesNeverMatch() throws {
        let registry = DependencyRegistry()
        registry.register(Int.self, tag: "1", instance: 100)
        registry.register(Int.self, tag: 1, instance: 200)
        #expect(try registry.resolve(Int.self, tag: "1") == 100)
        #expect(try registry.resolve(Int.self, tag: 1) == 200)
        #expect(DependencyRegistry.Tag("1") != DependencyRegistry.Tag(1))
        #expect(DependencyRegistry.Tag(1) != DependencyRegistry.Tag(UInt8(1)))
        #expect(DependencyRegistry.Tag(Flavor.premium) == DependencyRegistry.Tag(Flavor.premium))
        #expect(Set([DependencyRegistry.Tag(1), DependencyRegistry.Tag(1), DependencyRegistry.Tag("1")]).count == 2)
        #expect(DependencyRegistry.Tag(DependencyRegistry.Tag("1")) == DependencyRegistry.Tag("1"))
    }

    @Test func missingRegistrationThrowsAnErrorNamingTheTypeAndTheTag() {
        let registry = DependencyRegistry()
        #expect(
            throws: DependencyRegistry.Error.notRegistered(type: "FriendsProvider", tag: DependencyRegistry.Tag("me"))
        ) {
            let _: any FriendsProvider = try registry.resolve(tag: "me")
        }
        do {
            let _: any FriendsProvider = try registry.resolve(tag: Flavor.premium)
            Issue.record("resolve should have thrown")
        } catch {
            #expect(error.description.contains("FriendsProvider"))
            #expect(error.description.contains("premium"))
        }
        #expect(throws: DependencyRegistry.Error.notRegistered(type: "Int", tag: nil)) {
            try registry.resolve(Int.self)
        }
    }

    @Test func untaggedLookupDoesNotFallBackToATaggedRegistration() {
        let registry = DependencyRegistry()
        registry.register(String.self, tag: "only", instance: "tagged")
        #expect(throws: DependencyRegistry.Error.self) { try registry.resolve(String.self) }
        #expect(registry.isRegistered(String.self, tag: "only"))
        #expect(!registry.isRegistered(String.self))
    }

    @Test func registeringAgainReplaces() throws {
        let registry = DependencyRegistry()
        registry.register(String.self, instance: "first")
        registry.register(String.self, instance: "second")
        #expect(try registry.resolve(String.self) == "second")
        registry.register(String.self) { "from a factory" }
        #expect(try registry.resolve(String.self) == "from a factory")
    }

    @Test func unregisterRemovesOnlyThatRegistration() throws {
        let registry = DependencyRegistry()
        registry.register(String.self, instance: "untagged")
        registry.register(String.self, tag: "x", instance: "tagged")
        registry.unregister(String.self, tag: "x")
        #expect(try registry.resolve(String.self, tag: "x") == "untagged")
        registry.unregister(String.self)
        #expect(!registry.isRegistered(String.self, tag: "x"))
    }

    @Test func factoryMayResolveFromTheSameRegistry() throws {
        let registry = DependencyRegistry()
        registry.register(String.self, instance: "base")
        registry.register(Int.self) { [unowned registry] in
            (try? registry.resolve(String.self).count) ?? -1
        }
        #expect(try registry.resolve(Int.self) == 4)
    }

    @Test func taggedFactoryMayDecorateTheUntaggedRegistrationOfTheSameType() throws {
        let registry = DependencyRegistry()
        registry.register(String.self, instance: "plain")
        registry.register(String.self, tag: "loud") { [unowned registry] in
            ((try? registry.resolve(String.self)) ?? "missing").uppercased()
        }
        #expect(try registry.resolve(String.self, tag: "loud") == "PLAIN")
    }

    @Test func registeringWhileOtherTasksResolveIsSafe() async throws {
        let registry = DependencyRegistry()
        registry.register(Int.self, instance: 0)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        if round.isMultiple(of: 2) {
                            registry.register(Int.self, tag: writer, instance: round)
                        } else {
                            registry.register(Int.self, tag: writer) { round }
                        }
                        registry.register(Int.self, instance: round)
                    }
                }
            }
            for reader in 0..<64 {
                group.addTask {
                    for _ in 0..<200 {
                        let value = try? registry.resolve(Int.self, tag: reader % 8)
                        #expect(value != nil)
                    }
                }
            }
        }
        #expect(try registry.resolve(Int.self, tag: 3) == 199)
    }

    @Test func containerCanServeARegistryAsASharedInstance() throws {
        final class PluginContainer: DependencyContainer, @unchecked Sendable {
            func resolvePlugins() -> DependencyRegistry { shared { DependencyRegistry() } }
        }
        let container = PluginContainer()
        container.resolvePlugins().register(String.self, tag: "search", instance: "SearchPlugin")
        #expect(try container.resolvePlugins().resolve(String.self, tag: "search") == "SearchPlugin")
        #expect(PluginContainer().resolvePlugins() !== container.resolvePlugins())
    }
}
