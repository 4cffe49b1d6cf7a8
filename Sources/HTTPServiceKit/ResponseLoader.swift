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
        var trustedOrigin: HTTPOrigin
        /// Whether plain `http://` to non-loopback hosts is allowed on redirect.
        var allowsInsecureHTTP: Bool
        /// Seconds until the whole exchange fails with ``HTTPError/timedOut``.
        var timeout: TimeInterval
    }

    /// One call to ``load(_:policy:)``. A class, so a chunk is appended to `body` in place: a
    /// struct stored in the dictionary would be copied out, appended (copying the whole body) and
    /// written back, which is quadratic in the number of chunks.
    ///
    /// `@unchecked Sendable` because every field is read and written only under the loader's
    /// `pending` lock; the deadline and the cancellation handler only pass the object to ``end``.
    private final class Pending: @unchecked Sendable {
        let policy: Policy
        var body = Data()
        var response: URLResponse?
        /// The caller, once ``load(_:policy:)`` has suspended; `nil` before, and after the call ended.
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        /// How the call ended, kept only when it ended before the caller suspended.
        var early: Result<(Data, URLResponse), any Error>?
        /// Whether the call has ended: its outcome is decided, and nothing later changes it.
        var ended = false

        init(policy: Policy) {
            self.policy = policy
        }
    }

    static let shared = ResponseLoader()

    /// The calls in flight, by task identifier. A call leaves when it ends, so anything the
    /// transport reports later (data, a redirect, its completion) finds nothing and is ignored.
    private let pending = Lock<[Int: Pending]>([:])
    private let sessionBox = Lock<URLSession?>(nil)
    private let cancelTransport: @Sendable (URLSessionTask) -> Void

    /// - Parameter cancelTransport: Stops a task the call no longer waits for; the default cancels
    ///   it off the transport's thread (see ``cancel(_:)``). Tests pass a transport that ignores
    ///   cancellation, to show that no call waits for the transport to end it.
    init(cancelTransport: @escaping @Sendable (URLSessionTask) -> Void = ResponseLoader.cancel) {
        self.cancelTransport = cancelTransport
    }

    private var session: URLSession {
        sessionBox.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            let queue = DelegateQueue()
            queue.name = "HTTPServiceKit.ResponseLoader"
            queue.maxConcurrentOperationCount = 1
            let created = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
            session = created
            return created
        }
    }

    /// Ends this loader's session once its tasks are done (the session keeps its delegate, the
    /// loader, alive until then). For loaders made by tests; ``shared`` lives as long as the process.
    func invalidate() {
        sessionBox.withLock { $0 }?.finishTasksAndInvalidate()
    }

    /// Sends `request` and returns the whole body, or fails with the first limit broken.
    ///
    /// The call ends exactly once, whatever the transport does: with the transport's answer, with
    /// the first limit broken, with ``HTTPError/timedOut`` when `policy.timeout` passes, or with
    /// `CancellationError` as soon as the calling task is cancelled (before the request starts, it
    /// is never sent). The loader ends the call itself in each case and only then asks the transport
    /// to stop; whatever the transport reports afterwards is ignored.
    /// - Throws: ``HTTPError/responseTooLarge(limit:)``, ``HTTPError/insecureTransport(host:)``,
    ///   ``HTTPError/timedOut`` or the transport's error (mapped by the caller), `CancellationError`
    ///   when the calling task is cancelled.
    func load(_ request: URLRequest, policy: Policy) async throws -> (Data, URLResponse) {
        try Task.checkCancellation()
        let task = session.dataTask(with: request)
        let call = Pending(policy: policy)
        // Registered before anything can end it: a cancellation that comes before the caller
        // suspends is kept in `early` and handed over when it does.
        pending.withLock { $0[task.taskIdentifier] = call }
        let deadline = Lock<Task<Void, Never>?>(nil)
        // The caller is resumed only by `end`, which also takes the call out of `pending`.
        defer { deadline.withLock { $0?.cancel() } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard attach(continuation, to: call) else { return }
                // FoundationNetworking ignores `URLRequest.timeoutInterval` on a delegate session, so
                // the deadline is enforced here, for the whole exchange, on every platform, and it
                // ends the call itself: a transport that never reports cannot hold the caller.
                let timer = Task { [weak self] in
                    do {
                        try await Task.sleep(nanoseconds: Self.nanoseconds(policy.timeout))
                    } catch {
                        return
                    }
                    self?.end(call, of: task, with: .failure(HTTPError.timedOut))
                }
                deadline.withLock { $0 = timer }
                task.resume()
            }
        } onCancel: {
            end(call, of: task, with: .failure(CancellationError()))
        }
    }

    /// Hands `continuation` to `call`, or resumes it at once if the call has already ended.
    /// - Returns: Whether the call is still running, so the request should be sent.
    private func attach(
        _ continuation: CheckedContinuation<(Data, URLResponse), any Error>,
        to call: Pending
    ) -> Bool {
        let early: Result<(Data, URLResponse), any Error>? = pending.withLock { _ in
            guard call.ended else {
                call.continuation = continuation
                return nil
            }
            defer { call.early = nil }
            return call.early ?? .failure(CancellationError())
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Ends `call` with `outcome` unless it has ended already, resumes its caller if it is waiting,
    /// and, when the transport has not finished, stops `task` (the call no longer waits for it).
    /// - Parameter transportFinished: Whether `outcome` is the transport's own completion.
    private func end(
        _ call: Pending,
        of task: URLSessionTask,
        with outcome: Result<(Data, URLResponse), any Error>,
        transportFinished: Bool = false
    ) {
        let ending: (first: Bool, caller: CheckedContinuation<(Data, URLResponse), any Error>?) =
            pending.withLock { pending in
                guard !call.ended else { return (false, nil) }
                call.ended = true
                if pending[task.taskIdentifier] === call { pending[task.taskIdentifier] = nil }
                call.body = Data()
                guard let caller = call.continuation else {
                    call.early = outcome
                    return (true, nil)
                }
                call.continuation = nil
                return (true, caller)
            }
        guard ending.first else { return }
        ending.caller?.resume(with: outcome)
        if !transportFinished { cancelTransport(task) }
    }

    /// `timeout` in nanoseconds, saturating instead of trapping (``HTTPService`` only passes
    /// validated timeouts, but a conversion must never be the thing that crashes).
    static func nanoseconds(_ timeout: TimeInterval) -> UInt64 {
        guard timeout > 0 else { return 0 }
        let nanoseconds = timeout * 1_000_000_000
        return nanoseconds < Double(UInt64.max) ? UInt64(nanoseconds) : .max
    }

    /// Cancels `task` from outside the transport's thread: with callbacks run in place (see
    /// ``DelegateQueue``), a delegate method runs on that thread, where `cancel()` would wait for
    /// itself.
    static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let length = response.expectedContentLength
        // `nil` when the call has ended (it is no longer in `pending`): its transport is being stopped.
        let decision: (call: Pending, tooLarge: Int?)? = pending.withLock { pending in
            guard let call = pending[dataTask.taskIdentifier] else { return nil }
            call.response = response
            let maximum = call.policy.maximumBytes
            if length > Int64(maximum) { return (call, maximum) }
            // The whole body at once, so it is never moved while it grows.
            if length > 0 { call.body.reserveCapacity(Int(length)) }
            return (call, nil)
        }
        completionHandler(decision != nil && decision?.tooLarge == nil ? .allow : .cancel)
        // FoundationNetworking ignores the disposition: `end` cancels the transport explicitly.
        if let decision, let limit = decision.tooLarge {
            end(decision.call, of: dataTask, with: .failure(HTTPError.responseTooLarge(limit: limit)))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: (call: Pending, limit: Int)? = pending.withLock { pending in
            guard let call = pending[dataTask.taskIdentifier] else { return nil }
            let maximum = call.policy.maximumBytes
            if call.body.count + data.count > maximum { return (call, maximum) }
            call.body.append(data)
            return nil
        }
        if let overLimit {
            end(overLimit.call, of: dataTask, with: .failure(HTTPError.responseTooLarge(limit: overLimit.limit)))
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let call = pending.withLock { $0[task.taskIdentifier] }
        guard let call, let url = request.url, let target = HTTPOrigin(url) else {
            completionHandler(nil)
            return
        }
        let policy = call.policy
        if target.scheme == "http", !policy.allowsInsecureHTTP, !HTTPOrigin.isLoopback(target.host) {
            completionHandler(nil)
            end(call, of: task, with: .failure(HTTPError.insecureTransport(host: target.host)))
            return
        }
        var redirected = request
        if target != policy.trustedOrigin {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(redirected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // A call that already ended (cancelled, timed out, over a limit) is gone: a late completion
        // finds nothing.
        let finished: (call: Pending, outcome: Result<(Data, URLResponse), any Error>)? = pending.withLock {
            pending in
            guard let call = pending[task.taskIdentifier] else { return nil }
            if let error { return (call, .failure(error)) }
            guard let response = call.response ?? task.response else {
                return (call, .failure(HTTPError.transport("no response")))
            }
            return (call, .success((call.body, response)))
        }
        guard let finished else { return }
        end(finished.call, of: task, with: finished.outcome, transportFinished: true)
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
