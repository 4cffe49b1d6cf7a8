// expected-error: type 'MyCoreDependency' does not conform to protocol 'Dependency'
// A class that conforms to AppCore's Dependency without PartialContainer (a production class)
// must implement every resolve; AppCore's defaults are for partial test doubles only.
import AppCore
import DependencyKit

final class MyCoreDependency: DependencyContainer, Dependency, @unchecked Sendable {
    func resolveHTTPService() -> any HTTPServiceType { live { makeHTTPService() } }
}
