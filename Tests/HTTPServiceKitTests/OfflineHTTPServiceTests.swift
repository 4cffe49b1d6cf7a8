import HTTPServiceKit
import Testing

@Suite struct OfflineHTTPServiceTests {
    @Test func everyRequestFailsAsARefusedConnection() async {
        let service: any HTTPServiceType = OfflineHTTPService()
        await #expect(throws: OfflineHTTPService.defaultFailure) {
            let _: [String] = try await service.get("/users", token: nil)
        }
        await #expect(throws: OfflineHTTPService.defaultFailure) {
            let _: [String] = try await service.post("/users", body: EmptyBody(), token: Secret("t1"))
        }
        await #expect(throws: OfflineHTTPService.defaultFailure) {
            try await service.send("/logout", body: EmptyBody(), token: nil)
        }
        #expect(OfflineHTTPService.defaultFailure == .connectionFailed("offline, no request sent"))
    }

    @Test func itFailsWithTheErrorItIsGiven() async {
        let service = OfflineHTTPService(failing: .timedOut)
        await #expect(throws: HTTPError.timedOut) {
            let _: [String] = try await service.get("/users", token: nil)
        }
    }
}
