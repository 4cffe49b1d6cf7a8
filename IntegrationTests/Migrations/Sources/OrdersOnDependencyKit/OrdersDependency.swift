import DependencyKit
import OrdersDomain

// The orders service on DependencyKit: the Swinject version (OrdersOnSwinject) moved over one
// registration at a time. Each registration is a resolve method; each object scope is the function
// that wraps its body.

// snippet: dk-orders-container
protocol OrdersDependency: DependencyContainer {
    func resolveDatabase() -> OrderDatabase
    func resolveAuditLog() -> AuditLog
    func resolveOrderStore() -> OrderStore
    func resolveCatalogue() -> Catalogue
    func resolveCardGateway() -> any PaymentGateway
    func resolveInvoiceGateway() -> any PaymentGateway
    func resolveClock() -> any Clock
    func resolveOrderHandler(for customer: String) -> OrderHandler
}

class CoreOrdersDependency: DependencyContainer, OrdersDependency, @unchecked Sendable {
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

let ordersInjector = Injector<any OrdersDependency> { CoreOrdersDependency() }

protocol HasOrdersDependencies {}

extension HasOrdersDependencies {
    var dependencies: any OrdersDependency { ordersInjector.dependencies }
}

// end-snippet
