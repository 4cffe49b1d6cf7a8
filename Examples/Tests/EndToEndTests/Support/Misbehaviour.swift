import Foundation
import Hummingbird
import UsersAPI

/// A way for `GET /users/me` and `GET /users` to go wrong, served by a test-only router.
enum Misbehaviour: Sendable {
    /// 500 with `{"error": message}`.
    case serverError(String)
    /// 200 with a body that is not valid JSON.
    case malformedJSON
    /// 200 with nothing in the body.
    case emptyBody
    /// Sleeps before answering 200 with a valid user.
    case slow(Duration)
    /// 200 with a `Content-Length` body of this many bytes.
    case oversized(Int)
    /// 200 with a chunked body (no `Content-Length`) of this many bytes.
    case oversizedChunked(Int)
    /// 500 echoing the request's `Authorization` header in the error message.
    case echoAuthorization
    /// 302 to the same path on another server.
    case redirect(to: String)

    static let user = #"{"id":"u-1","name":"Slow Poke","email":"slow@example.com"}"#

    func respond(to request: Request) async throws -> Response {
        switch self {
        case .serverError(let message):
            return Self.json(#"{"error":"\#(message)"}"#, status: .internalServerError)
        case .malformedJSON:
            return Self.json(#"{"id": "u-1", "name": "#, status: .ok)
        case .emptyBody:
            return Response(status: .ok)
        case .slow(let delay):
            try? await Task.sleep(for: delay)
            return Self.json(Self.user, status: .ok)
        case .oversized(let size):
            return Self.json(Self.padded(size), status: .ok)
        case .oversizedChunked(let size):
            let body = Self.padded(size)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    var buffer = ByteBuffer(string: body)
                    while let chunk = buffer.readSlice(length: min(4096, buffer.readableBytes)), chunk.readableBytes > 0
                    {
                        try await writer.write(chunk)
                    }
                    try await writer.finish(nil)
                }
            )
        case .echoAuthorization:
            let header = request.headers[.authorization] ?? "none"
            return Self.json(#"{"error":"rejected credentials \#(header)"}"#, status: .internalServerError)
        case .redirect(let target):
            return Response(status: .found, headers: [.location: target + request.uri.path])
        }
    }

    /// A JSON string of about `size` bytes.
    static func padded(_ size: Int) -> String {
        #"{"padding":""# + String(repeating: "x", count: max(size, 0)) + #""}"#
    }

    static func json(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// Starts a server whose user routes misbehave this way.
    func startServer() async throws -> UsersServer {
        let router = Router()
        let behaviour = self
        router.get("users/me") { request, _ in try await behaviour.respond(to: request) }
        router.get("users") { request, _ in try await behaviour.respond(to: request) }
        return try await UsersServer.start(serving: router)
    }
}
