// expected-error: type 'CoreGreetingDependency' does not conform to protocol 'GreetingDependency'
// A production container class that forgets one resolve of its protocol. The protocol's defaults
// are constrained to PartialContainer, so the class cannot silently take one.
import DependencyKit

protocol Greeter: Sendable {
    func greeting(for name: String) -> String
}

struct PlainGreeter: Greeter {
    func greeting(for name: String) -> String { "Hello, \(name)!" }
}

protocol GreetingDependency: InjectableContainer where Injector == GreetingInjector {
    func resolveGreeter() -> any Greeter
    func resolveFarewell() -> any Greeter
}

extension GreetingDependency where Self: PartialContainer {
    func resolveGreeter() -> any Greeter { fresh { PlainGreeter() } }
    func resolveFarewell() -> any Greeter { fresh { PlainGreeter() } }
}

class CoreGreetingDependency: DependencyContainer, GreetingDependency, @unchecked Sendable {
    func resolveGreeter() -> any Greeter { fresh { PlainGreeter() } }
    // resolveFarewell() forgotten
}

enum GreetingInjector: DependencyInjecting {
    static let storage = ContainerStorage<any GreetingDependency> { CoreGreetingDependency() }
}
