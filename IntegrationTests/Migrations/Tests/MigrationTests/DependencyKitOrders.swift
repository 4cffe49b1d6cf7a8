import DependencyKit
import OrdersDomain

@testable import OrdersOnDependencyKit

/// The DependencyKit port under test: each scope is a `withDependencies` block with overrides.
struct DependencyKitOrders: OrdersProgram {
    let server = OrdersServer()

    // snippet: dk-orders-test-scope
    static func withTestApp(_ body: (any OrdersProgram) async throws -> Void) async throws {
        try await withDependencies(
            CoreOrdersDependency(), .override({ $0.resolveClock() }, with: FixedClock(OrdersTests.nineOClock))
        ) {
            try await body(DependencyKitOrders())
        }
    }

    func withDecliningCard(_ body: (any OrdersProgram) async throws -> Void) async throws {
        try await ordersInjector.withOverrides(
            .override({ $0.resolveCardGateway() }, with: DecliningGateway()),
            .override({ $0.resolveDatabase() }, with: ordersInjector.dependencies.resolveDatabase())
        ) { try await body(self) }
    }
    // end-snippet

    func handler(for customer: String) -> OrderHandler { server.handler(for: customer) }

    func placeOrder(for customer: String, cents: Int, paying method: PaymentMethod) async throws -> Order {
        try await server.placeOrder(for: customer, cents: cents, paying: method)
    }

    func orders(for customer: String) async -> [Order] { await server.orders(for: customer) }

    func catalogue() -> Catalogue { server.catalogue() }
}
