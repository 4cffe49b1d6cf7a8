public import Hummingbird
internal import Logging

/// Gives every failure the API's error shape, `{"error": "message"}`.
///
/// Errors thrown by Hummingbird itself (an oversized body, say) carry its own body format;
/// this middleware rewrites them, and turns anything unexpected into a 500 whose message
/// reveals nothing about the request. What only the operator should read (a database path)
/// goes to the log.
public struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the chain and rewrites its failures.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            if let operatorMessage = error.operatorMessage { context.logger.error("\(operatorMessage)") }
            throw error
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, error.status.reasonPhrase.lowercased())
        } catch {
            context.logger.error("unexpected error", metadata: ["type": "\(type(of: error))"])
            throw APIError(.internalServerError, "internal server error")
        }
    }
}
