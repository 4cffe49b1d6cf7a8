import OrdersDomain
import Swinject

// The orders service on Swinject, written as Swinject's documentation teaches: assemblies of
// registrations, every object scope, named registrations and a runtime argument.

// snippet: swinject-orders-container
final class StorageAssembly: Assembly {
    func assemble(container: Container) {
        container.register(OrderDatabase.self) { _ in OrderDatabase() }.inObjectScope(.container)
        container.register(AuditLog.self) { _ in AuditLog() }.inObjectScope(.graph)
        container.register(OrderStore.self) { r in
            OrderStore(database: r.resolve(OrderDatabase.self)!, audit: r.resolve(AuditLog.self)!)
        }
        container.register(Catalogue.self) { _ in Catalogue.load() }.inObjectScope(.weak)
    }
}

final class PaymentAssembly: Assembly {
    func assemble(container: Container) {
        container.register(PaymentGateway.self, name: "card") { _ in CardGateway() }
        container.register(PaymentGateway.self, name: "invoice") { _ in InvoiceGateway() }
    }
}

final class OrderAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Clock.self) { _ in SystemClock() }
        container.register(OrderHandler.self) { (r, customer: String) in
            OrderHandler(
                customer: customer,
                store: r.resolve(OrderStore.self)!,
                card: r.resolve(PaymentGateway.self, name: "card")!,
                invoice: r.resolve(PaymentGateway.self, name: "invoice")!,
                clock: r.resolve(Clock.self)!,
                audit: r.resolve(AuditLog.self)!
            )
        }.inObjectScope(.transient)
    }
}

func makeOrdersContainer() -> Container {
    let container = Container()
    _ = Assembler([StorageAssembly(), PaymentAssembly(), OrderAssembly()], container: container)
    return container
}
// end-snippet
