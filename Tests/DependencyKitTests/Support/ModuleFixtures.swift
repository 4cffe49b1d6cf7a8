import DependencyKit

/// A screen model made from a resolved dependency and a run-time payload.
final class DetailModel: FactoryModule {
    struct Dependency: Sendable {
        let store: Store
        let evaluations: Counter
    }

    struct Payload {
        let itemID: Int
    }

    let dependency: Dependency
    let itemID: Int
    var extra: String?

    init(dependency: Dependency, payload: Payload) {
        self.dependency = dependency
        itemID = payload.itemID
    }
}

extension Factory where Module == DetailModel {
    /// A customised creation path, as an app would add for its own module.
    func create(itemID: Int, extra: String) -> DetailModel {
        let model = create(payload: .init(itemID: itemID))
        model.extra = extra
        return model
    }
}

/// Needs nothing at all.
struct Banner: FactoryModule {
    let text: String
    init(dependency: Void, payload: Void) { text = "welcome" }
}

/// Needs only a payload.
struct Badge: FactoryModule {
    let count: Int
    init(dependency: Void, payload: Int) { count = payload }
}

/// Needs only a dependency.
struct Clock: FactoryModule {
    let now: Int
    init(dependency: Int, payload: Void) { now = dependency }
}

/// A view the framework makes and we configure.
final class ItemCell: ConfiguratorModule {
    struct Dependency: Sendable {
        let store: Store
        let evaluations: Counter
    }

    struct Payload: Sendable, Equatable {
        let title: String
    }

    private(set) var store: Store?
    private(set) var title: String?

    func configure(dependency: Dependency, payload: Payload) {
        store = dependency.store
        title = payload.title
    }
}

/// Configured with a payload only.
final class TitleLabel: ConfiguratorModule {
    typealias Payload = String
    private(set) var text = ""
    func configure(dependency: Void, payload: String) { text = payload }
}

/// Configured with a dependency only.
final class ThemeView: ConfiguratorModule {
    typealias Dependency = String
    private(set) var theme = ""
    func configure(dependency: String, payload: Void) { theme = dependency }
}

/// Builds a dependency and counts how often that happens.
func makeDetailDependency(_ evaluations: Counter, store: Store = Store(serial: 0)) -> DetailModel.Dependency {
    evaluations.increment()
    pauseBriefly()
    return .init(store: store, evaluations: evaluations)
}

func makeCellDependency(_ evaluations: Counter) -> ItemCell.Dependency {
    evaluations.increment()
    pauseBriefly()
    return .init(store: Store(serial: 0), evaluations: evaluations)
}
