import DependencyKit
import OrdersDomain

// The orders service on DependencyKit: the Swinject version (OrdersOnSwinject) moved over one
// registration at a time. Each registration is a resolve method of one class; each object scope is
// the function that wraps its body. The app publishes no container protocol to other modules, so the
// class is the container type.

// snippet: dk-orders-container
class CoreOrdersDependency: DependencyContainer, @unchecked Sendable {
    // StorageAssembly
    func resolveDatabase() -> OrderDatabase { shared { OrderDatabase() } }
    func resolveAuditLog() -> AuditLog { perGraph { AuditLog() } }
    func resolveOrderStore() -> OrderStore {
        fresh { OrderStore(database: resolveDatabase(), audit: resolveAuditLog()) }
    }
    func resolveCatalogue() -> Catalogue { weakShared { Catalogue.load() } }

    // PaymentAssembly: one resolve per name
    func resolveCardGateway() -> any PaymentGateway { live { CardGateway() } }
    func resolveInvoiceGateway() -> any PaymentGateway { live { InvoiceGateway() } }

    // OrderAssembly: the argument is a parameter
    func resolveClock() -> any Clock { live { SystemClock() } }
    func resolveOrderHandler(for customer: String) -> OrderHandler {
        fresh {
            OrderHandler(
                customer: customer,
                store: resolveOrderStore(),
                card: resolveCardGateway(),
                invoice: resolveInvoiceGateway(),
                clock: resolveClock(),
                audit: resolveAuditLog()
            )
        }
    }
}

let ordersInjector = Injector<CoreOrdersDependency> { CoreOrdersDependency() }

protocol HasOrdersDependencies {}

extension HasOrdersDependencies {
    var dependencies: CoreOrdersDependency { ordersInjector.dependencies }
}

// end-snippet
