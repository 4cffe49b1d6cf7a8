import DependencyKit

/// A minimal container declared with the engine, the way any module would.
protocol ToyDependency: DependencyContainer {
    func resolveGreeting() -> String
    func resolveMarker() -> Int
}

extension ToyDependency {
    func resolveGreeting() -> String { "hello from \(resolveMarker())" }
    func resolveMarker() -> Int { 0 }
}

class ToyCore: DependencyContainer, ToyDependency, @unchecked Sendable {
    let marker: Int
    init(marker: Int) {
        self.marker = marker
        super.init()
    }
    func resolveMarker() -> Int { marker }
}

let toyInjector = Injector<any ToyDependency> { ToyCore(marker: 0) }

/// A second, independent kind of container, so tests can prove storages do not mix.
protocol OtherDependency: DependencyContainer {
    func resolveName() -> String
}

final class OtherCore: DependencyContainer, OtherDependency, @unchecked Sendable {
    let name: String
    init(name: String) {
        self.name = name
        super.init()
    }
    func resolveName() -> String { name }
}

let otherInjector = Injector<any OtherDependency> { OtherCore(name: "default") }

/// Reads the toy container's marker through the injector, as application code would.
func currentMarker() -> Int { toyInjector.dependencies.resolveMarker() }
