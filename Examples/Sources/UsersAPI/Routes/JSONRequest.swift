internal import Foundation
internal import Hummingbird

/// Reading JSON bodies with the API's own error messages.
enum JSONRequest {
    /// The largest body a route reads: every field it accepts fits many times over.
    static let maximumBodyBytes = 16 * 1024

    static func decode<Payload: Decodable>(
        _ type: Payload.Type,
        from request: Request,
        context: some RequestContext
    ) async throws -> Payload {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: min(context.maxUploadSize, maximumBodyBytes))
        } catch {
            throw APIError(.contentTooLarge, "the request body is too large")
        }
        do {
            return try JSONDecoder().decode(Payload.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(.badRequest, "the request body is not the expected JSON")
        }
    }
}

/// The `Authorization: Bearer <token>` header.
enum BearerToken {
    static func require(in request: Request) throws -> String {
        guard let header = request.headers[.authorization] else { throw APIError.notAuthenticated }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.notAuthenticated }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { throw APIError.notAuthenticated }
        return token
    }
}
