internal import DependencyKit

#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Runs `URLSession` data tasks with a byte limit enforced while the body streams in.
///
/// `URLSession.data(for:)` buffers the whole body before anyone can look at its size, so a
/// hostile or broken server could make the app hold any amount of memory. Through the data
/// delegate this loader rejects a response whose `Content-Length` exceeds the limit before
/// reading its body, and cancels a body (chunked, or lying about its length) as soon as it
/// grows past the limit. It also keeps the bearer token off redirects that leave the origin,
/// and refuses redirects to plain `http://` that the request itself would not be allowed.
///
/// One loader and one ephemeral session serve the whole process (no cookies, no disk cache,
/// so no token is ever persisted by the session); each task carries its own limits.
final class ResponseLoader: NSObject, URLSessionDataDelegate, Sendable {
    /// What a task may do, decided by ``HTTPService`` when it builds the request.
    struct Policy: Sendable {
        /// The largest body accepted.
        var maximumBytes: Int
        /// Only requests to this origin may carry the `Authorization` header.
        var trustedOrigin: HTTPService.Origin
        /// Whether plain `http://` to non-loopback hosts is allowed on redirect.
        var allowsInsecureHTTP: Bool
        /// Seconds until the whole exchange fails with ``HTTPError/timedOut``.
        var timeout: TimeInterval
    }

    private struct Pending {
        let policy: Policy
        let continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var body = Data()
        var response: URLResponse?
        var failure: HTTPError?
    }

    static let shared = ResponseLoader()

    private let pending = Locked<[Int: Pending]>([:])
    private let sessionBox = Locked<URLSession?>(nil)

    private var session: URLSession {
        sessionBox.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            let queue = OperationQueue()
            queue.name = "AppCore.ResponseLoader"
            queue.maxConcurrentOperationCount = 1
            let created = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
            session = created
            return created
        }
    }

    /// Sends `request` and returns the whole body, or fails with the first limit broken.
    /// - Throws: ``HTTPError/responseTooLarge(limit:)`` or the transport's error (mapped by the
    ///   caller), `CancellationError` when the calling task is cancelled.
    func load(_ request: URLRequest, policy: Policy) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        // FoundationNetworking ignores `URLRequest.timeoutInterval` on a delegate session, so the
        // deadline is enforced here, for the whole exchange, on every platform.
        let deadline = Task { [weak self] in
            try await Task.sleep(nanoseconds: UInt64(max(policy.timeout, 0) * 1_000_000_000))
            self?.expire(task)
        }
        defer { deadline.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.withLock { $0[identifier] = Pending(policy: policy, continuation: continuation) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Fails a task that is still running with ``HTTPError/timedOut``.
    private func expire(_ task: URLSessionTask) {
        let running = pending.withLock { pending in
            guard pending[task.taskIdentifier] != nil else { return false }
            if pending[task.taskIdentifier]?.failure == nil { pending[task.taskIdentifier]?.failure = .timedOut }
            return true
        }
        if running { task.cancel() }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed: Bool = pending.withLock { pending in
            guard var entry = pending[dataTask.taskIdentifier] else { return false }
            entry.response = response
            if response.expectedContentLength > Int64(entry.policy.maximumBytes) {
                entry.failure = .responseTooLarge(limit: entry.policy.maximumBytes)
            }
            pending[dataTask.taskIdentifier] = entry
            return entry.failure == nil
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: Bool = pending.withLock { pending in
            guard var entry = pending[dataTask.taskIdentifier], entry.failure == nil else { return false }
            if entry.body.count + data.count > entry.policy.maximumBytes {
                entry.failure = .responseTooLarge(limit: entry.policy.maximumBytes)
                entry.body = Data()
            } else {
                entry.body.append(data)
            }
            pending[dataTask.taskIdentifier] = entry
            return entry.failure != nil
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let policy = pending.withLock { $0[task.taskIdentifier]?.policy }
        guard let policy, let url = request.url, let target = HTTPService.Origin(url) else {
            completionHandler(nil)
            return
        }
        if target.scheme == "http", !policy.allowsInsecureHTTP, !HTTPService.isLoopback(target.host) {
            pending.withLock { $0[task.taskIdentifier]?.failure = .insecureTransport(host: target.host) }
            completionHandler(nil)
            task.cancel()
            return
        }
        var redirected = request
        if target != policy.trustedOrigin {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(redirected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = entry.failure {
            entry.continuation.resume(throwing: failure)
        } else if let error {
            entry.continuation.resume(throwing: error)
        } else if let response = entry.response ?? task.response {
            entry.continuation.resume(returning: (entry.body, response))
        } else {
            entry.continuation.resume(throwing: HTTPError.transport("no response"))
        }
    }
}
