internal import NIOCore

/// Answers a connection the server will not serve with `503 Service Unavailable` and
/// `Retry-After`, then closes it without cutting that answer off.
///
/// Placed first in the pipeline (next to the socket), it writes the answer as bytes, whatever
/// the HTTP handlers behind it have parsed so far, and keeps every byte the client sends from
/// reaching them. Closing a socket that still has unread input makes the kernel reset the
/// connection, and a reset can destroy the answer before the client reads it; so after the
/// answer the connection is half-closed (the client reads the end of the response), the
/// client's bytes are read and dropped until it closes its side, and the connection is closed
/// then, or after ``lingerTime`` at the latest.
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// How long a refused client has to read the answer before the connection is closed anyway.
    static let lingerTime = TimeAmount.seconds(2)

    private let response: String
    private var linger: Scheduled<Void>?

    /// - Parameters:
    ///   - reason: Why the connection is refused, for the body.
    ///   - retryAfter: Whole seconds for `Retry-After`.
    init(reason: PeerAdmission.Refusal, retryAfter: Int) {
        let message =
            switch reason {
            case .addressAtLimit: "too many connections from your address; retry after \(retryAfter) s"
            case .serverFull: "the server is busy; retry after \(retryAfter) s"
            }
        let body = #"{"error":"\#(message)"}"#
        response =
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(retryAfter)\r\n"
            + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        linger = context.eventLoop.scheduleTask(in: Self.lingerTime) { loopBound.value.close(promise: nil) }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { result in
            switch result {
            case .success: loopBound.value.close(mode: .output, promise: nil)
            case .failure: loopBound.value.close(promise: nil)
            }
        }
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: response)), promise: written)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        linger?.cancel()
        linger = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Dropped: nothing the client sends is served any more.
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        linger?.cancel()
        linger = nil
        context.fireChannelInactive()
    }
}
