import AppCore

// snippet: concurrency-view-model
@MainActor
final class ProfileViewModel: HasAppDependencies {
    private(set) var title = "Signed out"
    private(set) var greeting = ""

    func load(token: Secret) async {
        greeting = await dependencies.resolveGreeting()
        do {
            title = try await dependencies.resolveUsersWorker().fetchCurrent(token: token).name
        } catch {
            title = "Offline"
        }
    }
}
// end-snippet
