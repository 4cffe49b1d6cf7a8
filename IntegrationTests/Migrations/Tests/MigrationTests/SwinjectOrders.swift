import OrdersDomain
import Swinject

@testable import OrdersOnSwinject

/// The Swinject program under test: each scope is a child container that registers the replacements.
struct SwinjectOrders: OrdersProgram {
    let container: Container

    var server: OrdersServer { OrdersServer(resolver: container) }

    // snippet: swinject-orders-test-scope
    static func withTestApp(_ body: (any OrdersProgram) async throws -> Void) async throws {
        let container = Container(parent: makeOrdersContainer())
        container.register(Clock.self) { _ in FixedClock(OrdersTests.nineOClock) }
        try await body(SwinjectOrders(container: container))
    }

    func withDecliningCard(_ body: (any OrdersProgram) async throws -> Void) async throws {
        let child = Container(parent: container)
        child.register(PaymentGateway.self, name: "card") { _ in DecliningGateway() }
        try await body(SwinjectOrders(container: child))
    }
    // end-snippet

    func handler(for customer: String) -> OrderHandler { server.handler(for: customer) }

    func placeOrder(for customer: String, cents: Int, paying method: PaymentMethod) async throws -> Order {
        try await server.placeOrder(for: customer, cents: cents, paying: method)
    }

    func orders(for customer: String) async -> [Order] { await server.orders(for: customer) }

    func catalogue() -> Catalogue { server.catalogue() }
}
