import AppCore
import DependencyKit
import Foundation

/// `AppDependency` with no network: the container the demo swaps in for one step.
///
/// It overrides one resolve, and the change cascades: `resolveUsersWorker()` (inherited from
/// `CoreDependency`) builds a `UsersNetworkStore` over `resolveUsersStore()`, which builds it
/// over `self.resolveHTTPService()`, which is now ``OfflineHTTPService``. The cache resolves
/// are inherited from `AppDependency`, so the offline worker reads the same cache.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class OfflineDependency: AppDependency, @unchecked Sendable {
    /// A container like `online` in every resolve but the HTTP service.
    init(from online: AppDependency) {
        super.init(settings: online.settings)
    }

    override func resolveHTTPService() -> any HTTPServiceType { fresh { OfflineHTTPService() } }
}

/// An HTTP service with no network: every request fails with `HTTPError.connectionFailed`,
/// as a phone in airplane mode would, without sending anything.
struct OfflineHTTPService: HTTPServiceType {
    static let failure = HTTPError.connectionFailed("offline, no request sent")

    func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError) -> Response {
        throw Self.failure
    }

    func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        throw Self.failure
    }

    func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError) {
        throw Self.failure
    }
}
