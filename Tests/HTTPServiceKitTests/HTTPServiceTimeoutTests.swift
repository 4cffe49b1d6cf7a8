import Foundation
import Testing

@testable import HTTPServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every timeout either works or is refused with a typed error: none crashes, none hangs.
///
/// The tests that talk to a server have a time limit that only a hang reaches: they take a second
/// alone, and under ThreadSanitizer on a busy machine the whole suite's tests take up to ten
/// minutes. The tests that only compute have none.
@Suite struct HTTPServiceTimeoutTests {
    private func service(_ server: LoopbackServer, timeout: TimeInterval) -> HTTPService {
        HTTPService(configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: timeout))
    }

    @Test(.timeLimit(.minutes(10)), arguments: [Double.infinity, -.infinity, .nan, 1.85e10, 1e300, 0, -1, -1e-6])
    func unusableTimeoutIsRefusedBeforeSending(timeout: Double) async throws {
        try await withLoopbackServer(.silent) { server in
            let result: Result<User, HTTPError> = await outcome { () async throws(HTTPError) -> User in
                try await service(server, timeout: timeout).get("/users/me", token: nil)
            }
            guard case .failure(.invalidConfiguration) = result else {
                Issue.record("expected invalidConfiguration, got \(result)")
                return
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(10)), arguments: [1e-6, 0.001, 0.2])
    func shortTimeoutAgainstASilentServerTimesOut(timeout: Double) async throws {
        try await withLoopbackServer(.silent) { server in
            await #expect(throws: HTTPError.timedOut) {
                let _: User = try await service(server, timeout: timeout).get("/users/me", token: nil)
            }
        }
    }

    @Test func longestAcceptedTimeoutIsUsable() throws {
        let year = HTTPConfiguration.timeoutRange.upperBound
        let service = HTTPService(
            configuration: HTTPConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!, timeout: year)
        )
        let request = try service.makeRequest(method: "GET", path: "/users", body: nil, token: nil).request
        #expect(request.timeoutInterval == year)
        #expect(ResponseLoader.nanoseconds(year) == UInt64(year) * 1_000_000_000)
    }

    @Test func nanosecondConversionSaturatesInsteadOfTrapping() {
        #expect(ResponseLoader.nanoseconds(.infinity) == .max)
        #expect(ResponseLoader.nanoseconds(1e300) == .max)
        #expect(ResponseLoader.nanoseconds(.nan) == 0)
        #expect(ResponseLoader.nanoseconds(-5) == 0)
    }

    /// A deadline that fires before the request is registered must still end it: many tries at
    /// a nanosecond, where the race is most likely.
    @Test(.timeLimit(.minutes(10))) func nanosecondTimeoutNeverHangs() async throws {
        try await withLoopbackServer(.silent) { server in
            for _ in 0..<50 {
                await #expect(throws: HTTPError.timedOut) {
                    let _: User = try await service(server, timeout: 1e-9).get("/users/me", token: nil)
                }
            }
        }
    }
}
