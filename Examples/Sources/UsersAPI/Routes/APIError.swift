internal import Foundation
public import Hummingbird

/// An error a route answers with: a status and `{"error": "message"}`.
///
/// Messages are written for the client and never contain a password or token.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    /// The response status.
    public let status: HTTPResponse.Status
    /// The message in the body.
    public let message: String
    /// What the server's operator needs to know, logged as an error and never sent.
    let operatorMessage: String?

    /// Creates an error response.
    /// - Parameters:
    ///   - status: The response status.
    ///   - message: The message in the body.
    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.init(status, message, operatorMessage: nil)
    }

    init(_ status: HTTPResponse.Status, _ message: String, operatorMessage: String?) {
        self.status = status
        self.message = message
        self.operatorMessage = operatorMessage
    }

    /// The response: `status` with `{"error": message}`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse.make(ErrorPayload(error: message), status: status)
    }

    static let notAuthenticated = APIError(.unauthorized, "missing, unknown or revoked bearer token")
}

/// Builds JSON responses.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let data = try JSONEncoder().encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
