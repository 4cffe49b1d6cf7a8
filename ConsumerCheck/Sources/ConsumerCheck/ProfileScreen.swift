import AppCore
import DependencyKit

/// A main-actor screen made by a factory: in this module the conformance is main-actor
/// isolated without saying so (InferIsolatedConformances), and the factory can only create on
/// the main actor.
final class ProfileScreen: FactoryModule {
    struct Dependency: Sendable {
        let usersWorker: any UsersWorkerType
    }

    let usersWorker: any UsersWorkerType
    let userID: User.ID

    init(dependency: Dependency, payload: User.ID) {
        usersWorker = dependency.usersWorker
        userID = payload
    }
}

/// Counts sign-ins; one per container.
actor SignInCounter {
    private(set) var count = 0

    func increment() { count += 1 }
}
