import AppCore
import DependencyKit
import DependencyKitTesting
import Testing

// The samples of TaggedRegistry.md.

protocol WebServiceType: Sendable {}
struct WebService: WebServiceType {}

protocol FriendsProvider: Sendable {
    var friends: [String] { get }
}

struct DummyFriendsProvider: FriendsProvider {
    let user: String
    var friends: [String] { ["\(user)'s friend"] }
}

struct PlistFriendsProvider: FriendsProvider {
    let plist: String
    var friends: [String] { ["from \(plist).plist"] }
}

@Suite struct TaggedRegistryTests {
    @Test func registrationsResolveByTypeAndTagWithFallback() throws {
        // snippet: tagged-registry-register
        let registry = DependencyRegistry()

        registry.register((any WebServiceType).self, instance: WebService())
        registry.register((any FriendsProvider).self) { tag in
            DummyFriendsProvider(user: tag?.value(as: String.self) ?? "Jane Doe")
        }
        registry.register((any FriendsProvider).self, tag: "me") {
            PlistFriendsProvider(plist: "myfriends")
        }
        // end-snippet

        // snippet: tagged-registry-resolve
        let web: any WebServiceType = try registry.resolve()  // the one WebService
        let mine: any FriendsProvider = try registry.resolve(tag: "me")  // PlistFriendsProvider
        let bob: any FriendsProvider = try registry.resolve(tag: "bob")  // DummyFriendsProvider("bob")
        // end-snippet

        #expect(web is WebService)
        #expect(mine.friends == ["from myfriends.plist"])
        #expect(bob.friends == ["bob's friend"])
    }

    @Test func aContainerServesItsOwnRegistry() {
        let container = PluginsDependency()
        #expect(container.resolvePlugins() === container.resolvePlugins())
        #expect(container.resolvePlugins() !== PluginsDependency().resolvePlugins())
    }
}

class PluginsDependency: CoreDependency, @unchecked Sendable {  // snippet.hide
    // snippet: tagged-registry-container
    open func resolvePlugins() -> DependencyRegistry {
        shared { DependencyRegistry() }
    }
    // end-snippet
}  // snippet.hide
