import DependencyKit
import DependencyKitTesting
import Testing

private final class ProfileModel: FactoryModule, Sendable {
    struct Dependency: Sendable { let baseURL: String }
    struct Payload: Sendable, Equatable { let userID: Int }

    let url: String
    init(dependency: Dependency, payload: Payload) {
        url = "\(dependency.baseURL)/users/\(payload.userID)"
    }
}

/// Code under test: receives a factory and creates a model when a row is selected.
private struct UsersListModel {
    let profileFactory: ProfileModel.Factory
    func select(userID: Int) -> ProfileModel { profileFactory.create(payload: .init(userID: userID)) }
}

private final class AvatarCell: ConfiguratorModule {
    struct Dependency: Sendable { let placeholder: String }
    struct Payload: Sendable, Equatable { let name: String }

    private(set) var label = ""
    func configure(dependency: Dependency, payload: Payload) { label = "\(payload.name) \(dependency.placeholder)" }
}

struct ModuleStubTests {
    @Test func stubFactoryReturnsTheGivenInstance() {
        let profile = ProfileModel(dependency: .init(baseURL: "stub"), payload: .init(userID: 0))
        let list = UsersListModel(profileFactory: .stub(returning: profile))
        #expect(list.select(userID: 7) === profile)
        #expect(list.select(userID: 8) === profile)
    }

    @Test func stubFactoryCreatesWithTheClosure() {
        let factory = ProfileModel.Factory.stub { payload in
            ProfileModel(dependency: .init(baseURL: "https://test"), payload: payload)
        }
        #expect(UsersListModel(profileFactory: factory).select(userID: 3).url == "https://test/users/3")
    }

    @Test func recordingStubFactoryRecordsEveryPayload() async {
        let recorder = PayloadRecorder<ProfileModel.Payload>()
        let factory = ProfileModel.Factory.stub(recordingInto: recorder) { payload in
            ProfileModel(dependency: .init(baseURL: "x"), payload: payload)
        }
        await withTaskGroup(of: Void.self) { group in
            for userID in 0..<100 { group.addTask { _ = factory.create(payload: .init(userID: userID)) } }
        }
        #expect(recorder.count == 100)
        #expect(Set(recorder.payloads.map(\.userID)) == Set(0..<100))
        recorder.removeAll()
        #expect(recorder.payloads.isEmpty)
    }

    @Test func stubFactoryServesTheDependencyItWasGiven() {
        let factory = ProfileModel.Factory.stub(dependency: .init(baseURL: "given")) { payload in
            ProfileModel(dependency: .init(baseURL: "made"), payload: payload)
        }
        #expect(factory.dependency.baseURL == "given")
    }

    @Test func stubConfiguratorRunsTheClosureInsteadOfTheModule() {
        let configurator = AvatarCell.Configurator.stub { cell, payload in
            cell.configure(dependency: .init(placeholder: "(stub)"), payload: payload)
        }
        let cell = AvatarCell()
        configurator.configure(cell, payload: .init(name: "Ada"))
        #expect(cell.label == "Ada (stub)")
    }

    @Test func recordingStubConfiguratorRecordsAndLeavesTheModuleAlone() {
        let recorder = PayloadRecorder<AvatarCell.Payload>()
        let configurator = AvatarCell.Configurator.stub(recordingInto: recorder)
        let cell = AvatarCell()
        configurator.configure(cell, payload: .init(name: "Ada"))
        configurator.configure(cell, payload: .init(name: "Grace"))
        #expect(recorder.payloads == [.init(name: "Ada"), .init(name: "Grace")])
        #expect(cell.label.isEmpty)
    }

    @Test func readingTheDependencyOfAStubMadeWithoutOneStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = ProfileModel.Factory.stub { payload in
                ProfileModel(dependency: .init(baseURL: "x"), payload: payload)
            }
            _ = factory.dependency
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("pass `dependency:` to `stub`"))
    }
}

/// A module that is not `Sendable`: a view model with mutable state.
private final class DraftModel: FactoryModule {
    var text = ""
    init(dependency: Void, payload: Int) { text = "draft \(payload)" }
}

private final class Banner: ConfiguratorModule {
    private(set) var shown = false
    func configure(dependency: Void, payload: Void) { shown = true }
}

struct PureParityStubTests {
    @Test func stubFactoryReturnsANonSendableInstance() {
        let draft = DraftModel(dependency: (), payload: 0)
        let factory = DraftModel.Factory.stub(draft)
        #expect(factory.create(payload: 1) === factory.create(payload: 2))
        #expect(factory.create(payload: 3).text == "draft 0")
    }

    @Test func stubFactoryOfANonSendableModuleStopsWhenAnotherTaskCreates() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = DraftModel.Factory.stub(DraftModel(dependency: (), payload: 0))
            _ = await Task.detached { factory.create(payload: 1).text }.value
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("created it outside the isolation domain that made the stub"))
    }

    @MainActor
    @Test func stubFactoryMadeOnAnActorReturnsItsModuleThere() {
        let draft = DraftModel(dependency: (), payload: 4)
        let factory = DraftModel.Factory.stub(draft)
        #expect(factory.create(payload: 1) === draft)
    }

    @Test func stubConfiguratorWithoutAClosureConfiguresNothing() {
        let banner = Banner()
        Banner.Configurator.stub().configure(banner)
        #expect(!banner.shown)
        let cell = AvatarCell()
        AvatarCell.Configurator.stub().configure(cell, payload: .init(name: "Ann"))
        #expect(cell.label.isEmpty)
    }

    @Test func moduleWithoutDependencyOrPayloadConfiguresItself() {
        let banner = Banner()
        banner.configure()
        #expect(banner.shown)
    }
}
