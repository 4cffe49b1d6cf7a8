import DependencyKit
import Foundation
import Testing

// The samples of Lifetimes.md: a small shop, in a neutral domain.

struct Product: Sendable, Hashable {
    let name: String
}

/// Talks to the catalogue server: a fresh value on every resolve.
struct CatalogueClient: Sendable {}

/// Remembers products already fetched: one per container.
final class ProductCache: Sendable {
    private let products = Locked([String: Product]())
    func insert(_ product: Product) { products.withLock { $0[product.name] = product } }
    var count: Int { products.withLock { $0.count } }
}

/// The shopping cart of one visit: emptied, and replaced, when the visit ends.
final class Cart: Sendable {
    private let items = Locked([Product]())
    func add(_ product: Product) { items.withLock { $0.append(product) } }
    var products: [Product] { items.withLock { $0 } }
}

/// The model of the product page on screen, while something shows it.
final class ProductPageModel: Sendable {}

/// What one checkout screen edits: its form and its summary must see the same order.
final class OrderDraft: Sendable {}

struct CheckoutForm: Sendable {
    let draft: OrderDraft
}

struct CheckoutSummary: Sendable {
    let draft: OrderDraft
}

struct CheckoutScreen: Sendable {
    let form: CheckoutForm
    let summary: CheckoutSummary
}

struct MissingSetting: Error {}

// snippet: lifetimes-scope
extension Lifetime {
    static let visit = Lifetime("visit")
}
// end-snippet

// snippet: lifetimes-container
class ShopDependency: DependencyContainer, @unchecked Sendable {
    func resolveCatalogueClient() -> CatalogueClient { fresh { CatalogueClient() } }
    func resolveProductCache() -> ProductCache { shared { ProductCache() } }
    func resolveProductPageModel() -> ProductPageModel { weakShared { ProductPageModel() } }
    func resolveCart() -> Cart { shared(in: .visit) { Cart() } }
    func resolveOrderDraft() -> OrderDraft { perGraph { OrderDraft() } }

    func resolveCheckoutScreen() -> CheckoutScreen {
        fresh {
            CheckoutScreen(
                form: CheckoutForm(draft: resolveOrderDraft()),
                summary: CheckoutSummary(draft: resolveOrderDraft())
            )
        }
    }
}
// end-snippet

extension ShopDependency {
    func resolvePaymentKey() throws -> String { try fresh { throw MissingSetting() } }
}

// snippet: lifetimes-helper
extension DependencyContainer {
    func cached<T: Sendable>(
        fileID: String = #fileID, line: UInt = #line, column: UInt = #column,
        _ make: () -> T
    ) -> T {
        shared(fileID: fileID, line: line, column: column, make)
    }
}
// end-snippet

/// A database that takes a moment to open.
actor Database {
    let url: URL

    private init(url: URL) { self.url = url }

    static func open(at url: URL) async throws -> Database {
        await Task.yield()
        return Database(url: url)
    }
}

class DatabaseDependency: DependencyContainer, @unchecked Sendable {  // snippet.hide
    func resolveDatabaseURL() -> URL {  // snippet.hide
        fresh { URL(fileURLWithPath: "/tmp/shop.sqlite") }  // snippet.hide
    }  // snippet.hide
    // snippet: lifetimes-async
    open func resolveDatabase() async throws -> Database {
        try await shared { try await Database.open(at: resolveDatabaseURL()) }
    }
    // end-snippet
}  // snippet.hide

// snippet: lifetimes-run-time-scope
/// One shopper of a shop server: the lifetime of their cart ends when the shopper is let go.
final class Shopper: Sendable {
    let visit = Lifetime("shopper")
}

extension ShopDependency {
    func resolveCart(for shopper: Shopper) -> Cart { shared(in: shopper.visit) { Cart() } }
}
// end-snippet

// snippet: lifetimes-resolve-list
extension ShopDependency {
    static var startUpResolves: [(ShopDependency) throws -> Void] {
        [{ _ = $0.resolveProductCache() }, { _ = try $0.resolvePaymentKey() }]
    }
}
// end-snippet

@Suite struct LifetimesSnippetsTests {
    @Test func sharedScopedAndPerGraphInstancesBehaveAsDocumented() {
        let container = ShopDependency()
        #expect(container.resolveProductCache() === container.resolveProductCache())
        // snippet: lifetimes-reset
        let cart = container.resolveCart()
        cart.add(Product(name: "Tea"))
        container.reset(.visit)  // the visit ends
        #expect(container.resolveCart() !== cart)  // the next visit gets a new, empty cart
        #expect(cart.products.count == 1)  // who still holds the old one keeps a working cart
        // end-snippet
        // snippet: lifetimes-per-graph
        let screen = container.resolveCheckoutScreen()
        #expect(screen.form.draft === screen.summary.draft)  // one draft per screen
        #expect(container.resolveCheckoutScreen().form.draft !== screen.form.draft)  // and per resolve
        // end-snippet
    }

    @Test func aScopeMadeAtRunTimeHoldsOneCartPerShopperAndEndsWithTheShopper() {
        let container = ShopDependency()
        weak var firstCart: Cart?
        do {
            let shopper = Shopper()
            let cart = container.resolveCart(for: shopper)
            firstCart = cart
            #expect(container.resolveCart(for: shopper) === cart)
            #expect(container.resolveCart(for: Shopper()) !== cart)
        }
        for _ in 0..<200 { _ = container.resolveCart(for: Shopper()) }
        #expect(firstCart == nil)
    }

    @Test func aHelperThatForwardsTheCallSiteKeepsOneInstancePerCaller() {
        final class Box: Sendable {}
        let container = DependencyContainer()
        func first() -> Box { container.cached { Box() } }
        func second() -> Box { container.cached { Box() } }
        #expect(first() === first())
        #expect(first() !== second())
    }

    @Test func anAsyncSharedResolveOpensTheDatabaseOnce() async throws {
        let container = DatabaseDependency()
        async let one = container.resolveDatabase()
        async let two = container.resolveDatabase()
        let (first, second) = try await (one, two)
        #expect(first === second)
    }

    @Test func startUpReportsTheMissingSetting() {
        // snippet: lifetimes-warm-up
        let container = ShopDependency()
        do {
            try container.warmUp(ShopDependency.startUpResolves)
        } catch {
            print(error)
            // Start-up failed. 1 of 2 resolves failed:
            // ✗ resolvePaymentKey(): MissingSetting()
            // resolveProductCache() → ProductCache [shared, ShopDependency]
            // resolvePaymentKey() → (no value) as String [fresh, ShopDependency]
        }
        // end-snippet
        let report = Diagnostics.validate(container, ShopDependency.startUpResolves)
        #expect(report.failures.map(\.name) == ["resolvePaymentKey()"])
        #expect(
            "\(report)"
                == """
                1 of 2 resolves failed:
                ✗ resolvePaymentKey(): MissingSetting()
                resolveProductCache() → ProductCache [shared, ShopDependency]
                resolvePaymentKey() → (no value) as String [fresh, ShopDependency]
                """
        )
    }

    // snippet: lifetimes-validate
    @Test func theShopResolvesEverythingItDeclares() {
        let report = Diagnostics.validate(
            ShopDependency(), [{ _ = $0.resolveCheckoutScreen() }, { _ = $0.resolveCart() }])
        #expect(report.succeeded, "\(report)")
    }
    // end-snippet
}
