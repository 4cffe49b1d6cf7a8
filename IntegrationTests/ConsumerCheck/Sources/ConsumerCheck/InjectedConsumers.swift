import DependencyKit

// `@Inject` and overrides in a module whose default isolation is MainActor: no `nonisolated` on
// the consumers.

typealias InjectGreeting<Value: Sendable> = Inject<GreetingInjector, Value>

struct NightBannerModel {
    @InjectGreeting({ $0.resolveGreeter() }) var greeter

    func title(for name: String) -> String { greeter.greeting(for: name) }
}

final class NightBannerController {
    @InjectGreeting({ $0.resolveGreeter() }) var greeter
}
