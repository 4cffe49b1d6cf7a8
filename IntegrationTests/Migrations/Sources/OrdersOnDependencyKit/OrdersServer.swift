import DependencyKit
import OrdersDomain

// snippet: dk-orders-server
struct OrdersServer: HasOrdersDependencies {
    @Inject(ordersInjector, { $0.resolveDatabase() }) var database

    func handler(for customer: String) -> OrderHandler {
        dependencies.resolveOrderHandler(for: customer)
    }

    func placeOrder(for customer: String, cents: Int, paying method: PaymentMethod) async throws -> Order {
        try await handler(for: customer).place(cents: cents, paying: method)
    }

    func orders(for customer: String) async -> [Order] {
        await database.orders(for: customer)
    }

    func catalogue() -> Catalogue { dependencies.resolveCatalogue() }
}
// end-snippet
