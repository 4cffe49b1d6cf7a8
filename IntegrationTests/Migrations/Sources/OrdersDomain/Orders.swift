public import Foundation

// The orders service's domain: plain Swift, with no dependency injection in it. Both versions of the
// program, Swinject's and DependencyKit's, wire these same types.

/// Tells the time: the live clock, or a fixed one in tests.
public protocol Clock: Sendable {
    func now() -> Date
}

public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

public struct FixedClock: Clock {
    public let date: Date
    public init(_ date: Date) { self.date = date }
    public func now() -> Date { date }
}

public struct Order: Sendable, Equatable {
    public let customer: String
    public let cents: Int
    public let reference: String
    public let date: Date
}

/// Every order the service has taken: one per app. An actor, so it is `Sendable`.
public actor OrderDatabase {
    private var orders: [Order] = []

    public init() {}

    public func insert(_ order: Order) { orders.append(order) }
    public func orders(for customer: String) -> [Order] { orders.filter { $0.customer == customer } }
}

/// What happened while one order was placed: the handler and the store it uses write to the same log.
public actor AuditLog {
    public private(set) var lines: [String] = []

    public init() {}

    public func record(_ line: String) { lines.append(line) }
}

public enum PaymentError: Error, Equatable {
    case declined
}

/// Takes a payment and returns its reference.
public protocol PaymentGateway: Sendable {
    func charge(cents: Int, customer: String) async throws -> String
}

public struct CardGateway: PaymentGateway {
    public init() {}
    public func charge(cents: Int, customer: String) async throws -> String { "card-\(customer)-\(cents)" }
}

public struct InvoiceGateway: PaymentGateway {
    public init() {}
    public func charge(cents: Int, customer: String) async throws -> String { "invoice-\(customer)-\(cents)" }
}

/// A card processor that declines everything: the replacement the tests install.
public struct DecliningGateway: PaymentGateway {
    public init() {}
    public func charge(cents: Int, customer: String) async throws -> String { throw PaymentError.declined }
}

/// Stores orders, and writes to the audit log of the order in progress.
public struct OrderStore: Sendable {
    public let database: OrderDatabase
    public let audit: AuditLog

    public init(database: OrderDatabase, audit: AuditLog) {
        self.database = database
        self.audit = audit
    }

    public func save(_ order: Order) async {
        await database.insert(order)
        await audit.record("saved \(order.reference)")
    }
}

/// The price list: expensive to load, kept only while someone uses it.
public final class Catalogue: Sendable {
    public let id = UUID()
    public let prices: [String: Int]

    public init(prices: [String: Int]) { self.prices = prices }

    public static func load() -> Catalogue { Catalogue(prices: ["tea": 450, "cake": 380]) }
}

public enum PaymentMethod: Sendable {
    case card, invoice
}

/// Places one customer's orders: made per request, for the customer the request names.
public final class OrderHandler: Sendable {
    public let customer: String
    public let store: OrderStore
    public let card: any PaymentGateway
    public let invoice: any PaymentGateway
    public let clock: any Clock
    public let audit: AuditLog

    public init(
        customer: String, store: OrderStore, card: any PaymentGateway, invoice: any PaymentGateway,
        clock: any Clock, audit: AuditLog
    ) {
        self.customer = customer
        self.store = store
        self.card = card
        self.invoice = invoice
        self.clock = clock
        self.audit = audit
    }

    public func place(cents: Int, paying method: PaymentMethod) async throws -> Order {
        let reference = try await (method == .card ? card : invoice).charge(cents: cents, customer: customer)
        await audit.record("charged \(reference)")
        let order = Order(customer: customer, cents: cents, reference: reference, date: clock.now())
        await store.save(order)
        return order
    }
}
