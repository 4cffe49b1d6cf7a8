import Foundation
import TestSupport
import Testing

@testable import HTTPServiceKit

/// The helpers that start threads stop them on every path: when the test's body returns, throws,
/// or leaves a connection open.
@Suite(.timeLimit(.minutes(10))) struct TestSupportTests {
    private struct Thrown: Error {}

    @Test func aServerIsStoppedWhenTheBodyThrows() async throws {
        let escaped = Lock<LoopbackServer?>(nil)
        await #expect(throws: Thrown.self) {
            try await withLoopbackServer(.silent) { server in
                escaped.withLock { $0 = server }
                throw Thrown()
            }
        }
        let server = try #require(escaped.withLock { $0 })
        #expect(server.runningThreads == 0)
        let service = HTTPService(configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 60))
        let result: Result<User, HTTPError> = await outcome { () async throws(HTTPError) -> User in
            try await service.get("/users/me", token: nil)
        }
        guard case .failure(.connectionFailed) = result else {
            Issue.record("expected a refused connection once the server stopped, got \(result)")
            return
        }
    }

    /// A request still waiting on a silent connection when the body returns: the stop wakes the
    /// connection's thread, the client sees the connection close, and every thread has ended.
    @Test func aServerWithAnOpenConnectionIsStoppedWhenTheBodyReturns() async throws {
        let escaped = Lock<LoopbackServer?>(nil)
        let request = try await withLoopbackServer(.silent) { server in
            escaped.withLock { $0 = server }
            let service = HTTPService(configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 600))
            let request = Task {
                await outcome { () async throws(HTTPError) -> User in try await service.get("/users/me", token: nil) }
            }
            let received = await endsWithin(.seconds(120)) {
                while server.requests.isEmpty, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                return true
            }
            #expect(received == true)
            #expect(server.runningThreads >= 2, "the listener and the open connection")
            return request
        }
        #expect(try #require(escaped.withLock { $0 }).runningThreads == 0)
        let result = await endsWithin(.seconds(120)) { await request.value }
        guard case .failure = try #require(result) else {
            Issue.record("a silent server answered: \(String(describing: result))")
            return
        }
    }

    @Test func aBackgroundThreadIsStoppedWhenTheBodyThrows() async throws {
        let iterations = Lock(0)
        await #expect(throws: Thrown.self) {
            try await withThread { shouldStop in
                while !shouldStop() { iterations.withLock { $0 += 1 } }
            } _: {
                throw Thrown()
            }
        }
        let stopped = iterations.withLock { $0 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(iterations.withLock { $0 } == stopped)
    }
}
