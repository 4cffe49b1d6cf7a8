import Testing

@testable import DependencyKit

/// A main-actor type, like a view controller, made by a factory through an isolated conformance.
@MainActor
private final class ScreenModel {
    let title: String
    init(title: String) { self.title = title }
}

extension ScreenModel: @MainActor FactoryModule {
    struct Dependency: Sendable {
        let prefix: String
        let evaluations: Counter
    }

    typealias Payload = String

    convenience init(dependency: Dependency, payload: String) {
        self.init(title: dependency.prefix + payload)
    }
}

/// A main-actor type configured by a configurator through an isolated conformance.
@MainActor
private final class TitleView {
    var text = ""
}

extension TitleView: @MainActor ConfiguratorModule {
    typealias Dependency = String
    typealias Payload = String

    func configure(dependency: String, payload: String) { text = dependency + payload }
}

/// A container whose main-actor resolve hands out a factory for a main-actor module.
private final class ScreenContainer: DependencyContainer, @unchecked Sendable {
    let evaluations = Counter()

    @MainActor
    func resolveScreenFactory() -> ScreenModel.Factory {
        .init(dependency: .init(prefix: "Users: ", evaluations: self.evaluations))
    }
}

@MainActor
struct MainActorModuleTests {
    @Test func mainActorModuleIsCreatedByItsFactoryOnTheMainActor() {
        let container = ScreenContainer()
        let factory = container.resolveScreenFactory()
        #expect(factory.create(payload: "all").title == "Users: all")
        #expect(factory.create(payload: "admins").title == "Users: admins")
    }

    @Test func mainActorModuleIsConfiguredOnTheMainActor() {
        let configurator = TitleView.Configurator(dependency: "# ")
        let view = TitleView()
        configurator.configure(view, payload: "Users")
        #expect(view.text == "# Users")
    }
}
