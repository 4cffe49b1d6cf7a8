import Foundation
import OrdersDomain
import Testing

/// The orders service as the suite drives it: `SwinjectOrders` and `DependencyKitOrders` implement it
/// for the two versions of the program.
protocol OrdersProgram {
    /// Runs `body` against a new app built from the production graph, in a test scope where the clock
    /// reads ``OrdersTests/nineOClock``.
    static func withTestApp(_ body: (any OrdersProgram) async throws -> Void) async throws
    /// Runs `body` in a scope inside this one where the card gateway declines, sharing this app's
    /// instances.
    func withDecliningCard(_ body: (any OrdersProgram) async throws -> Void) async throws
    func handler(for customer: String) -> OrderHandler
    func placeOrder(for customer: String, cents: Int, paying method: PaymentMethod) async throws -> Order
    func orders(for customer: String) async -> [Order]
    func catalogue() -> Catalogue
}

enum OrdersVersion: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case swinject, dependencyKit

    var program: any OrdersProgram.Type {
        switch self {
        case .swinject: SwinjectOrders.self
        case .dependencyKit: DependencyKitOrders.self
        }
    }

    var testDescription: String { rawValue }
}

/// One suite, run against the Swinject program and its DependencyKit port.
@Suite struct OrdersTests {
    static let nineOClock = Date(timeIntervalSince1970: 9 * 3600)

    @Test(arguments: OrdersVersion.allCases)
    func chargesTheNamedGatewayAndStampsTheClock(version: OrdersVersion) async throws {
        try await version.program.withTestApp { app in
            let byCard = try await app.placeOrder(for: "ada", cents: 450, paying: .card)
            let byInvoice = try await app.placeOrder(for: "ada", cents: 380, paying: .invoice)
            #expect(byCard.reference == "card-ada-450")
            #expect(byInvoice.reference == "invoice-ada-380")
            #expect(byCard.date == Self.nineOClock)
        }
    }

    @Test(arguments: OrdersVersion.allCases)
    func theDatabaseIsOnePerApp(version: OrdersVersion) async throws {
        try await version.program.withTestApp { app in
            _ = try await app.placeOrder(for: "ada", cents: 450, paying: .card)
            _ = try await app.placeOrder(for: "ada", cents: 380, paying: .card)
            #expect(await app.orders(for: "ada").map(\.cents) == [450, 380])
        }
        try await version.program.withTestApp { anotherApp in
            #expect(await anotherApp.orders(for: "ada").isEmpty)
        }
    }

    @Test(arguments: OrdersVersion.allCases)
    func aHandlerIsMadePerResolveForTheCustomerItNames(version: OrdersVersion) async throws {
        try await version.program.withTestApp { app in
            let first = app.handler(for: "ada")
            let second = app.handler(for: "grace")
            #expect(first !== second)
            #expect(first.customer == "ada")
            #expect(second.customer == "grace")
        }
    }

    @Test(arguments: OrdersVersion.allCases)
    func oneAuditLogPerHandlerGraph(version: OrdersVersion) async throws {
        try await version.program.withTestApp { app in
            let handler = app.handler(for: "ada")
            #expect(handler.audit === handler.store.audit)
            #expect(handler.audit !== app.handler(for: "ada").audit)
            _ = try await handler.place(cents: 450, paying: .card)
            #expect(await handler.audit.lines == ["charged card-ada-450", "saved card-ada-450"])
        }
    }

    @Test(arguments: OrdersVersion.allCases)
    func theCatalogueLivesWhileSomeoneHoldsIt(version: OrdersVersion) async throws {
        try await version.program.withTestApp { app in
            var held: Catalogue? = app.catalogue()
            let firstID = try #require(held?.id)
            #expect(app.catalogue().id == firstID)
            held = nil
            #expect(held == nil)
            #expect(app.catalogue().id != firstID)
        }
    }

    @Test(arguments: OrdersVersion.allCases)
    func aNarrowerScopeReplacesOneNamedGatewayAndSharesTheDatabase(version: OrdersVersion) async throws {
        try await version.program.withTestApp { app in
            _ = try await app.placeOrder(for: "ada", cents: 450, paying: .card)
            try await app.withDecliningCard { declining in
                await #expect(throws: PaymentError.declined) {
                    try await declining.placeOrder(for: "ada", cents: 380, paying: .card)
                }
                _ = try await declining.placeOrder(for: "ada", cents: 380, paying: .invoice)
                #expect(await declining.orders(for: "ada").count == 2)
            }
            #expect(await app.orders(for: "ada").map(\.reference) == ["card-ada-450", "invoice-ada-380"])
            _ = try await app.placeOrder(for: "ada", cents: 120, paying: .card)  // the card works again
        }
    }
}
