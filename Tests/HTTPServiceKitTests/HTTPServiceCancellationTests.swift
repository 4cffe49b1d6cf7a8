import Foundation
import TestSupport
import Testing

@testable import HTTPServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every request ends exactly once, however its task is cancelled and whatever the transport
/// reports. Each wait is bounded by a hang guard (minutes, for work that takes milliseconds), so
/// a request that never ends fails its test instead of stopping the suite.
@Suite(.timeLimit(.minutes(10))) struct HTTPServiceCancellationTests {
    /// How a request's task is cancelled in ``cancelledRequestsAllEnd()``.
    enum Cancellation: CaseIterable, Sendable {
        /// The task is cancelled before it asks for anything.
        case beforeStart
        /// The test cancels the task right after creating it, racing its start.
        case atStart
        /// The test cancels the task a moment after creating it, while the request is in flight.
        case justAfterStart
    }

    /// 200 requests with a 1 s deadline to a server that never answers, from tasks cancelled
    /// before, at or just after their start: every one ends, as cancelled (or, for a task whose
    /// cancellation came late on a slow machine, timed out).
    @Test func cancelledRequestsAllEnd() async throws {
        try await withLoopbackServer(.silent) { server in
            let service = HTTPService(configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 1))
            let count = 200
            let ended = Lock([Int: Result<User, HTTPError>]())
            let finished = await endsWithin(.seconds(120)) {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<count {
                        let cancellation = Self.cancellation(of: index)
                        let request = Task {
                            if cancellation == .beforeStart { withUnsafeCurrentTask { $0?.cancel() } }
                            let result: Result<User, HTTPError> = await outcome { () async throws(HTTPError) -> User in
                                try await service.get("/users/me", token: nil)
                            }
                            ended.withLock { $0[index] = result }
                        }
                        switch cancellation {
                        case .beforeStart: break
                        case .atStart: request.cancel()
                        case .justAfterStart:
                            group.addTask {
                                try? await Task.sleep(for: .microseconds(100 * (index % 30)))
                                request.cancel()
                            }
                        }
                        group.addTask { await request.value }
                    }
                }
                return true
            }
            let results = ended.withLock { $0 }
            let hung = (0..<count).filter { results[$0] == nil }
            #expect(
                finished == true && hung.isEmpty,
                "\(hung.count) of \(count) requests never ended: \(hung.map { "#\($0) (\(Self.cancellation(of: $0)))" })"
            )
            let timedOut = results.values.filter { $0 == .failure(.timedOut) }.count
            print(
                "cancelled requests: \(results.count) of \(count) ended, \(timedOut) of them at the deadline; "
                    + "\(server.requests.count) reached the server"
            )
            for (index, result) in results.sorted(by: { $0.key < $1.key }) {
                switch (Self.cancellation(of: index), result) {
                case (_, .failure(.cancelled)): break
                case (.atStart, .failure(.timedOut)), (.justAfterStart, .failure(.timedOut)): break
                default: Issue.record("request #\(index) (\(Self.cancellation(of: index))) ended with \(result)")
                }
            }
        }
    }

    private static func cancellation(of index: Int) -> Cancellation {
        Cancellation.allCases[index % Cancellation.allCases.count]
    }
}
