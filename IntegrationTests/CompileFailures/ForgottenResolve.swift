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

protocol GreetingDependency: DependencyContainer {
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

let greetingInjector = Injector<any GreetingDependency> { CoreGreetingDependency() }
