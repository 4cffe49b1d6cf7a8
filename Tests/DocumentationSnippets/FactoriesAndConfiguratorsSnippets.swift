import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of FactoriesAndConfigurators.md.

// snippet: factories-factory-module
final class DetailViewModel: FactoryModule, Sendable {
    struct Dependency: Sendable {
        let usersWorker: any UsersWorkerType
    }

    struct Payload {
        let userID: User.ID
    }

    let usersWorker: any UsersWorkerType
    let userID: User.ID

    init(dependency: Dependency, payload: Payload) {
        usersWorker = dependency.usersWorker
        userID = payload.userID
    }
}
// end-snippet

protocol AvatarLoading: Sendable {
    func avatarURL(for user: User) -> URL
}

struct InitialsAvatarLoader: AvatarLoading {
    func avatarURL(for user: User) -> URL {
        URL(string: "https://avatars.example.com/\(user.name.prefix(1))")!
    }
}

// snippet: factories-configurator-module
final class UserCell: ConfiguratorModule {
    struct Dependency: Sendable { let avatars: any AvatarLoading }
    struct Payload: Sendable { let user: User }

    var title = ""
    var avatarURL: URL?

    func configure(dependency: Dependency, payload: Payload) {
        title = payload.user.name
        avatarURL = dependency.avatars.avatarURL(for: payload.user)
    }
}
// end-snippet

class DetailScreenDependency: CoreDependency, @unchecked Sendable {
    // snippet: factories-factory
    // In the container; the autoclosure escapes, hence `self.`
    open func resolveDetailFactory() -> DetailViewModel.Factory {
        fresh { .init(dependency: .init(usersWorker: self.resolveUsersWorker())) }
    }
}  // snippet.hide

func showDetail(for user: User, detailFactory: DetailViewModel.Factory) -> DetailViewModel {  // snippet.hide
    // In the list, when a row is tapped
    let detail = detailFactory.create(payload: .init(userID: user.id))
    return detail  // snippet.hide
    // end-snippet
}

class UserCellDependency: CoreDependency, @unchecked Sendable {
    func resolveAvatarLoader() -> any AvatarLoading { fresh { InitialsAvatarLoader() } }

    // snippet: factories-configurator
    open func resolveUserCellConfigurator() -> UserCell.Configurator {
        fresh { .init(dependency: .init(avatars: self.resolveAvatarLoader())) }
    }
}  // snippet.hide

func configureCell(_ cell: UserCell, for user: User, userCellConfigurator: UserCell.Configurator) {  // snippet.hide
    userCellConfigurator.configure(cell, payload: .init(user: user))
    // end-snippet
}

// snippet: factories-customising
extension Factory where Module == DetailViewModel {
    func create(for user: User) -> DetailViewModel {
        create(payload: .init(userID: user.id))
    }
}
// end-snippet

@MainActor
final class DetailViewController {
    let usersWorker: any UsersWorkerType
    let userID: User.ID

    init(usersWorker: any UsersWorkerType, userID: User.ID) {
        self.usersWorker = usersWorker
        self.userID = userID
    }
}

// snippet: factories-main-actor
extension DetailViewController: @MainActor FactoryModule {
    struct Dependency: Sendable { let usersWorker: any UsersWorkerType }
    typealias Payload = User.ID

    convenience init(dependency: Dependency, payload: User.ID) {
        self.init(usersWorker: dependency.usersWorker, userID: payload)
    }
}
// end-snippet

class ControllersDependency: CoreDependency, @unchecked Sendable {
    // snippet: factories-main-actor-resolve
    @MainActor
    open func resolveDetailFactory() -> DetailViewController.Factory {
        fresh { .init(dependency: .init(usersWorker: self.resolveUsersWorker())) }
    }
    // end-snippet
}

/// The list screen's model: creates detail models and configures cells through what it was given.
struct UsersListModel {
    let users: [User]
    let detailFactory: DetailViewModel.Factory
    let cellConfigurator: UserCell.Configurator

    func select(row: Int) -> DetailViewModel {
        detailFactory.create(for: users[row])
    }

    func configure(_ cell: UserCell, at row: Int) {
        cellConfigurator.configure(cell, payload: .init(user: users[row]))
    }
}

@Suite struct FactoriesAndConfiguratorsTests {
    let ada = User(id: "u1", name: "Ada", email: "ada@example.com")

    @Test func theContainersFactoryCreatesAModelPerPayload() {
        let factory = DetailScreenDependency().resolveDetailFactory()
        let detail = showDetail(for: ada, detailFactory: factory)
        #expect(detail.userID == "u1")
        #expect(factory.create(for: ada) !== detail)
    }

    @Test func theContainersConfiguratorSetsUpACell() {
        let cell = UserCell()
        configureCell(cell, for: ada, userCellConfigurator: UserCellDependency().resolveUserCellConfigurator())
        #expect(cell.title == "Ada")
        #expect(cell.avatarURL?.lastPathComponent == "A")
    }

    @Test @MainActor func aMainActorModuleIsCreatedOnTheMainActor() {
        let controller = ControllersDependency().resolveDetailFactory().create(payload: "u1")
        #expect(controller.userID == "u1")
    }

    @Test func stubsControlWhatTheCodeUnderTestCreates() {
        let users = [ada]
        let cell = UserCell()
        // snippet: factories-testing
        let detail = DetailViewModel(dependency: .init(usersWorker: UsersWorkerDouble()), payload: .init(userID: "u1"))
        let list = UsersListModel(
            users: users,
            detailFactory: .stub(returning: detail),
            cellConfigurator: .stub { _, _ in }
        )
        #expect(list.select(row: 0) === detail)

        let recorder = PayloadRecorder<UserCell.Payload>()
        let model = UsersListModel(
            users: users,
            detailFactory: .stub(returning: detail),
            cellConfigurator: .stub(recordingInto: recorder)
        )
        model.configure(cell, at: 0)
        #expect(recorder.payloads.map(\.user.id) == ["u1"])
        // end-snippet
    }
}
