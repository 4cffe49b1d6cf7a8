import Foundation
import TestSupport
import Testing

@testable import HTTPServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loader ends each call itself: against a transport that ignores cancellation (a loader whose
/// `cancelTransport` does nothing), a cancelled call and an expired one still end, with their own
/// errors, and what the transport reports afterwards is ignored. Every wait is a hang guard.
@Suite(.timeLimit(.minutes(10))) struct ResponseLoaderTests {
    private static func request(_ server: LoopbackServer) -> URLRequest {
        URLRequest(url: server.baseURL.appendingPathComponent("users"), timeoutInterval: 600)
    }

    private static func policy(_ server: LoopbackServer, timeout: TimeInterval) -> ResponseLoader.Policy {
        ResponseLoader.Policy(
            maximumBytes: 1 << 20,
            trustedOrigin: HTTPOrigin(server.baseURL)!,
            allowsInsecureHTTP: false,
            timeout: timeout
        )
    }

    @Test func theDeadlineEndsTheCallWhenTheTransportNeverReports() async throws {
        try await withLoopbackServer(.silent) { server in
            let loader = ResponseLoader(cancelTransport: { _ in })
            defer { loader.invalidate() }
            let request = Self.request(server)
            let policy = Self.policy(server, timeout: 0.2)
            let error = await endsWithin(.seconds(120)) { () -> String in
                do {
                    _ = try await loader.load(request, policy: policy)
                    return "a response"
                } catch {
                    return "\(error)"
                }
            }
            #expect(error == "\(HTTPError.timedOut)")
        }
    }

    @Test func cancellationEndsTheCallWhenTheTransportNeverReports() async throws {
        try await withLoopbackServer(.silent) { server in
            let loader = ResponseLoader(cancelTransport: { _ in })
            defer { loader.invalidate() }
            let request = Self.request(server)
            let policy = Self.policy(server, timeout: 600)
            let call = Task {
                do {
                    _ = try await loader.load(request, policy: policy)
                    return "a response"
                } catch {
                    return error is CancellationError ? "CancellationError" : "\(error)"
                }
            }
            // Cancelled while the request is in flight: the server has it, and will never answer.
            let sent = await endsWithin(.seconds(120)) {
                while server.requests.isEmpty, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                return true
            }
            #expect(sent == true)
            call.cancel()
            let error = await endsWithin(.seconds(120)) { await call.value }
            #expect(error == "CancellationError")
        }
    }

    /// The transport's completion after the call ended finds nothing: the caller is not resumed a
    /// second time (that would stop the process), and the loader goes on serving calls.
    @Test func aLateCompletionIsIgnored() async throws {
        try await withLoopbackServer(.silent) { server in
            let asked = Lock([URLSessionTask]())
            let loader = ResponseLoader(cancelTransport: { task in asked.withLock { $0.append(task) } })
            defer { loader.invalidate() }
            let request = Self.request(server)
            let error = await endsWithin(.seconds(120)) { () -> String in
                do {
                    _ = try await loader.load(request, policy: Self.policy(server, timeout: 0.2))
                    return "a response"
                } catch {
                    return "\(error)"
                }
            }
            #expect(error == "\(HTTPError.timedOut)")
            // The loader asked for the transport to stop once, and did not wait for it; it stops now,
            // and reports its completion to a call that has ended.
            let tasks = asked.withLock { $0 }
            #expect(tasks.count == 1)
            for task in tasks { task.cancel() }
            let completed = await endsWithin(.seconds(120)) {
                while tasks.contains(where: { $0.state != .completed }), !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(5))
                }
                return true
            }
            #expect(completed == true)
            let again = await endsWithin(.seconds(120)) { () -> String in
                do {
                    _ = try await loader.load(request, policy: Self.policy(server, timeout: 0.2))
                    return "a response"
                } catch {
                    return "\(error)"
                }
            }
            #expect(again == "\(HTTPError.timedOut)")
        }
    }

    @Test func aCallCancelledBeforeItStartsSendsNothing() async throws {
        try await withLoopbackServer(.silent) { server in
            let recorder = Lock([URLSessionTask]())
            let loader = ResponseLoader(cancelTransport: { task in recorder.withLock { $0.append(task) } })
            defer { loader.invalidate() }
            let request = Self.request(server)
            let policy = Self.policy(server, timeout: 600)
            let error = await endsWithin(.seconds(120)) { () -> String in
                withUnsafeCurrentTask { $0?.cancel() }
                do {
                    _ = try await loader.load(request, policy: policy)
                    return "a response"
                } catch {
                    return error is CancellationError ? "CancellationError" : "\(error)"
                }
            }
            #expect(error == "CancellationError")
            #expect(recorder.withLock { $0 }.isEmpty)
            #expect(server.requests.isEmpty)
        }
    }
}
