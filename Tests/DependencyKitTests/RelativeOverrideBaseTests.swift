import Testing

@testable import DependencyKit

// A relative override's base is built from the scope's own instances, once: the identity transform
// serves one instance, its production builder runs once per scope, and a decorated service works on
// the store the test resolves. Each test is written the way a test of an app's service would be.

protocol ShopDependency: DependencyContainer {
    func resolveStore() -> ShopStore
    func resolveService() -> ShopService
    func resolveController() async -> ShopController
}

/// A shared store a test writes to.
final class ShopStore: Sendable {
    private let storage = Locked<[String]>([])
    var items: [String] { storage.withLock { $0 } }
    func add(_ item: String) { storage.withLock { $0.append(item) } }
}

/// A service over the store; a decorator wraps another service and shares its store.
final class ShopService: Sendable {
    let store: ShopStore
    let wrapped: ShopService?

    init(store: ShopStore, wrapped: ShopService? = nil) {
        (self.store, self.wrapped) = (store, wrapped)
    }

    var itemCount: Int { store.items.count }
}

/// Built asynchronously on top of the service.
final class ShopController: Sendable {
    let service: ShopService
    init(service: ShopService) { self.service = service }
}

final class ShopCore: DependencyContainer, ShopDependency, @unchecked Sendable {
    /// How many times each production builder ran.
    let builds = RouteRecorder()

    func resolveStore() -> ShopStore {
        shared {
            builds.note("store")
            return ShopStore()
        }
    }
    func resolveService() -> ShopService {
        shared {
            builds.note("service")
            return ShopService(store: resolveStore())
        }
    }
    func resolveController() async -> ShopController {
        await shared { () async -> ShopController in
            builds.note("controller")
            await Task.yield()
            return ShopController(service: resolveService())
        }
    }

    func count(_ builder: String) -> Int { builds.notes.filter { $0 == builder }.count }
}

let shopInjector = Injector<any ShopDependency> { ShopCore() }

/// Wraps the base service, on the base's store.
let decorating: DependencyContainer.Override<any ShopDependency> = .override(
    { $0.resolveService() }, { ShopService(store: $0.store, wrapped: $0) })

@Suite struct RelativeOverrideBaseTests {
    // MARK: The identity transform

    @Test func theIdentityTransformServesOneInstanceBuiltOnceInWithDependencies() {
        let container = ShopCore()
        withDependencies(container, .override({ $0.resolveService() }) { $0 }) {
            let first = shopInjector.dependencies.resolveService()
            let second = shopInjector.dependencies.resolveService()
            #expect(first === second)
            #expect(first.store === shopInjector.dependencies.resolveStore())
        }
        #expect(container.count("service") == 1)
        #expect(container.count("store") == 1)
    }

    @Test func theIdentityTransformServesOneInstanceBuiltOnceInWithOverrides() {
        let container = ShopCore()
        withDependencies(container) {
            let outside = shopInjector.dependencies.resolveService()
            let (first, second) = shopInjector.withOverrides(.override({ $0.resolveService() }) { $0 }) {
                (shopInjector.dependencies.resolveService(), shopInjector.dependencies.resolveService())
            }
            #expect(first === second)
            #expect(first !== outside)  // the scope owns its instances
            #expect(shopInjector.dependencies.resolveService() === outside)
        }
        // Once for the container, once for the scope.
        #expect(container.count("service") == 2)
    }

    // MARK: A decorated service

    @Test func aDecoratedServiceSeesTheStoreTheTestResolves() {
        let container = ShopCore()
        withDependencies(container, decorating) {
            let service = shopInjector.dependencies.resolveService()
            shopInjector.dependencies.resolveStore().add("milk")
            #expect(service.itemCount == 1)
            #expect(service.wrapped?.itemCount == 1)
            #expect(shopInjector.dependencies.resolveService() === service)
        }
        #expect(container.count("service") == 1)
        #expect(container.count("store") == 1)
    }

    @Test func aDecoratedServiceResolvedAfterTheStoreSeesIt() {
        let container = ShopCore()
        withDependencies(container) {
            shopInjector.withOverrides(decorating) {
                let store = shopInjector.dependencies.resolveStore()
                store.add("milk")
                let service = shopInjector.dependencies.resolveService()
                #expect(service.store === store)
                #expect(service.wrapped?.store === store)
                #expect(service.itemCount == 1)
            }
        }
        #expect(container.count("service") == 1)
        #expect(container.count("store") == 1)
    }

    @Test func aDecoratorOfTheStoreAndOfTheServiceBuildOnOneStore() {
        let container = ShopCore()
        let stores = withDependencies(
            container,
            .override({ $0.resolveService() }) { ShopService(store: $0.store, wrapped: $0) },
            .override({ $0.resolveStore() }) { $0 }
        ) {
            let service = shopInjector.dependencies.resolveService()
            let store = shopInjector.dependencies.resolveStore()
            store.add("milk")
            #expect(service.itemCount == 1)
            return (service.store, store)
        }
        #expect(stores.0 === stores.1)
        #expect(container.count("store") == 1)
        #expect(container.count("service") == 1)
    }

    // MARK: Async

    @Test func aRelativeOverrideFirstMetThroughAnAsyncResolveBuildsItsBaseOnce() async {
        let container = ShopCore()
        await withDependencies(container, .override({ $0.resolveService() }) { $0 }) {
            let controller = await shopInjector.dependencies.resolveController()
            #expect(controller.service === shopInjector.dependencies.resolveService())
            #expect(await shopInjector.dependencies.resolveController() === controller)
        }
        #expect(container.count("service") == 1)
        #expect(container.count("controller") == 1)
    }

    @Test func anAsyncBuiltServiceIsDecoratedOnTheStoreTheTestResolves() async {
        let container = ShopCore()
        await withDependencies(container) {
            await shopInjector.withOverrides(decorating) {
                let controller = await shopInjector.dependencies.resolveController()
                shopInjector.dependencies.resolveStore().add("milk")
                #expect(controller.service.itemCount == 1)
                #expect(controller.service.wrapped?.itemCount == 1)
                #expect(controller.service === shopInjector.dependencies.resolveService())
            }
        }
        #expect(container.count("service") == 1)
        #expect(container.count("store") == 1)
    }

    // MARK: What the base is

    @Test func insideTheTransformTheReplacedResolveServesTheSameBase() {
        let container = ShopCore()
        withDependencies(
            container,
            .override({ $0.resolveService() }) { base in
                // The replaced resolve, called in the transform, serves the base it was given.
                #expect(shopInjector.dependencies.resolveService() === base)
                return ShopService(store: base.store, wrapped: base)
            }
        ) {
            let service = shopInjector.dependencies.resolveService()
            #expect(service.wrapped?.wrapped == nil)
        }
        #expect(container.count("service") == 1)
    }

    @Test func nestedDecoratorsEachWrapOnceAroundOneBase() {
        let container = ShopCore()
        withDependencies(container, decorating) {
            let outer = shopInjector.dependencies.resolveService()
            let inner = shopInjector.withOverrides(decorating) { shopInjector.dependencies.resolveService() }
            #expect(outer.wrapped?.wrapped == nil)
            #expect(inner.wrapped?.wrapped?.wrapped == nil)
            #expect(inner.wrapped?.wrapped != nil)
            // A nested scope starts its own instances.
            #expect(inner.store !== outer.store)
        }
        #expect(container.count("service") == 2)
    }

    @Test func eachScopeBuildsItsOwnBaseOnce() {
        let container = ShopCore()
        withDependencies(container) {
            for _ in 0..<10 {
                shopInjector.withOverrides(.override({ $0.resolveService() }) { $0 }) {
                    let service = shopInjector.dependencies.resolveService()
                    #expect(shopInjector.dependencies.resolveService() === service)
                    #expect(service.store === shopInjector.dependencies.resolveStore())
                }
            }
        }
        #expect(container.count("service") == 10)
        #expect(container.count("store") == 10)
    }

    @Test func twoRelativeOverridesOfOneTypeWhereOneBuildsOnTheOtherComposeExactly() {
        let container = CoreTime()
        let (greeter, again) = withDependencies(
            container,
            .override({ $0.resolveValue() }) { $0 * 2 },
            .override({ $0.resolveClock() }) { $0 + 100 }
        ) {
            (timeInjector.dependencies.resolveGreeter(), timeInjector.dependencies.resolveGreeter())
        }
        // The value's base reads the clock, whose override is found while the value's base is built.
        #expect(greeter.hour == (9 + 100 + 1) * 2)
        #expect(again === greeter)
        #expect(container.builds.notes == ["greeter"])
    }
}
