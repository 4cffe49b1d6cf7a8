import OrdersDomain
import Swinject

// snippet: swinject-orders-server
struct OrdersServer {
    let resolver: any Resolver

    func handler(for customer: String) -> OrderHandler {
        resolver.resolve(OrderHandler.self, argument: customer)!
    }

    func placeOrder(for customer: String, cents: Int, paying method: PaymentMethod) async throws -> Order {
        try await handler(for: customer).place(cents: cents, paying: method)
    }

    func orders(for customer: String) async -> [Order] {
        await resolver.resolve(OrderDatabase.self)!.orders(for: customer)
    }

    func catalogue() -> Catalogue { resolver.resolve(Catalogue.self)! }
}
// end-snippet
