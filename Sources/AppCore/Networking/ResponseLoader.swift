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
/// The limit counts *decoded* bytes. Every request asks for `Accept-Encoding: identity`, so an
/// honest server sends the body as it is; a server that compresses anyway is decoded by the
/// transport (on Linux, libcurl inflates whatever the response declares) and the decoded bytes
/// count against the limit as they arrive. On Linux the transport hands each decoded chunk to the
/// delegate queue without waiting, so a queue that fell behind would hold every chunk of a gzip
/// bomb at once; this loader's delegate queue therefore runs each callback at once, on the
/// transport's own thread, so at most one chunk is ever in flight and memory stays bounded by the
/// limit whatever the server sends.
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

    /// One running task. A class, so a chunk is appended to `body` in place: a struct stored in
    /// the dictionary would be copied out, appended (copying the whole body) and written back,
    /// which is quadratic in the number of chunks.
    private final class Pending {
        let policy: Policy
        let continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var body = Data()
        var response: URLResponse?
        var failure: HTTPError?
        /// Every body byte the transport handed over, decoded, the refused ones included.
        var receivedBytes = 0

        init(policy: Policy, continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
            self.policy = policy
            self.continuation = continuation
        }
    }

    static let shared = ResponseLoader()

    private let pending = Lock<[Int: Pending]>([:])
    private let sessionBox = Lock<URLSession?>(nil)

    private var session: URLSession {
        sessionBox.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            let queue = DelegateQueue()
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
        let deadline = Lock<Task<Void, Never>?>(nil)
        defer { deadline.withLock { $0?.cancel() } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.withLock { $0[identifier] = Pending(policy: policy, continuation: continuation) }
                // FoundationNetworking ignores `URLRequest.timeoutInterval` on a delegate session, so
                // the deadline is enforced here, for the whole exchange, on every platform. It starts
                // only once the task is registered: a deadline that fired earlier would find nothing
                // to expire and the request would wait forever.
                let timer = Task { [weak self] in
                    do {
                        try await Task.sleep(nanoseconds: Self.nanoseconds(policy.timeout))
                    } catch {
                        return
                    }
                    self?.expire(task)
                }
                deadline.withLock { $0 = timer }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// `timeout` in nanoseconds, saturating instead of trapping (``HTTPService`` only passes
    /// validated timeouts, but a conversion must never be the thing that crashes).
    static func nanoseconds(_ timeout: TimeInterval) -> UInt64 {
        guard timeout > 0 else { return 0 }
        let nanoseconds = timeout * 1_000_000_000
        return nanoseconds < Double(UInt64.max) ? UInt64(nanoseconds) : .max
    }

    /// Fails a task that is still running with ``HTTPError/timedOut``.
    private func expire(_ task: URLSessionTask) {
        let running = pending.withLock { pending in
            guard let entry = pending[task.taskIdentifier] else { return false }
            if entry.failure == nil { entry.failure = .timedOut }
            return true
        }
        if running { Self.cancel(task) }
    }

    /// Cancels `task` from outside the transport's thread: with callbacks run in place (see
    /// ``DelegateQueue``), a delegate method runs on that thread, where `cancel()` would wait for
    /// itself.
    private static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed: Bool = pending.withLock { pending in
            guard let entry = pending[dataTask.taskIdentifier] else { return false }
            entry.response = response
            let limit = entry.policy.maximumBytes
            if response.expectedContentLength > Int64(limit) {
                entry.failure = .responseTooLarge(limit: limit)
            } else if response.expectedContentLength > 0 {
                // The whole body at once, so it is never moved while it grows.
                entry.body.reserveCapacity(Int(response.expectedContentLength))
            }
            return entry.failure == nil
        }
        completionHandler(allowed ? .allow : .cancel)
        // FoundationNetworking ignores the disposition: cancel explicitly.
        if !allowed { Self.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: Bool = pending.withLock { pending in
            guard let entry = pending[dataTask.taskIdentifier] else { return false }
            entry.receivedBytes += data.count
            guard entry.failure == nil else { return false }
            if entry.body.count + data.count > entry.policy.maximumBytes {
                entry.failure = .responseTooLarge(limit: entry.policy.maximumBytes)
                entry.body = Data()
            } else {
                entry.body.append(data)
            }
            return entry.failure != nil
        }
        guard overLimit else { return }
        #if canImport(FoundationNetworking)
            // Still inside the transport's pass over the socket (see `TransferBreaker`).
            TransferBreaker.breakTransfer(to: dataTask.currentRequest?.url ?? dataTask.originalRequest?.url)
        #endif
        Self.cancel(dataTask)
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
            Self.cancel(task)
            return
        }
        var redirected = request
        if target != policy.trustedOrigin {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(redirected)
    }

    /// Called with each finished task's URL and the decoded body bytes the transport handed
    /// over for it, refused ones included; for tests that check how soon a refused body stopped.
    static let transferObserver = Lock<(@Sendable (URL?, Int) -> Void)?>(nil)

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let observer = Self.transferObserver.withLock({ $0 }) {
            observer(task.originalRequest?.url, entry.receivedBytes)
        }
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

extension ResponseLoader {
    /// The session's delegate queue: runs every callback at once, on the calling thread.
    ///
    /// FoundationNetworking (Linux) decodes compressed bodies inside libcurl and posts each decoded
    /// chunk to the delegate queue without waiting; libcurl reads up to a hundred buffers per
    /// pass, and a 16 KiB buffer of a gzip bomb decodes to 16 MiB, so a queue that runs callbacks
    /// later can hold gigabytes before the limit is even seen. Run in place, each chunk is counted
    /// (and dropped once the limit is broken) before the next one is decoded. Every delegate
    /// method of the loader is short and never blocks, which is what makes this safe; none calls
    /// `cancel()` in place (see ``ResponseLoader/cancel(_:)``). Darwin's URLSession does not
    /// route callbacks through this method and keeps its own flow control.
    /// `@unchecked Sendable` restates `OperationQueue`'s own conformance; the subclass adds no state.
    final class DelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            #if canImport(FoundationNetworking)
                block()
            #else
                super.addOperation(block)
            #endif
        }
    }
}
