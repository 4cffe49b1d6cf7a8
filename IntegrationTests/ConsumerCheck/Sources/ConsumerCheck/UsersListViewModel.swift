import AppCore

/// A main-actor view model that reads AppCore's own container through `HasDependencies`.
@MainActor
final class UsersListViewModel: HasDependencies {
    private(set) var names: [String] = []
    lazy var worker = dependencies.resolveUsersWorker()

    func load(token: Secret) async {
        names = (try? await worker.fetchAll(token: token).map(\.name)) ?? []
    }
}
