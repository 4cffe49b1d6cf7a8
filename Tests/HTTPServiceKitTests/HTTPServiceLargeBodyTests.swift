import Foundation
import Testing

@testable import HTTPServiceKit

/// A large body within the limit arrives whole. Before the fix each chunk copied the whole body
/// (quadratic: many seconds for 32 MiB); the test asserts only the result, never the time. The
/// limit only catches a hang: a second alone, minutes under ThreadSanitizer on a busy machine.
@Suite(.timeLimit(.minutes(10))) struct HTTPServiceLargeBodyTests {
    @Test func thirtyTwoMebibyteBodyWithinTheLimitArrivesWhole() async throws {
        let size = 32 << 20
        let json = Data(("\"" + String(repeating: "a", count: size - 2) + "\"").utf8)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(json.count)"
        try await withLoopbackServer(.fixed(head: head, body: json)) { server in
            let service = HTTPService(
                configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 60, maximumResponseBytes: 64 << 20)
            )
            let text: String = try await service.get("/big", token: nil)
            #expect(text.utf8.count == size - 2)
        }
    }
}
