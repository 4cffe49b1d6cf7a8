import DependencyKit

// `@Inject` and overrides in a module whose default isolation is MainActor: no `nonisolated` on
// the consumers.

struct NightBannerModel {
    @Inject(greetingInjector, { $0.resolveGreeter() }) var greeter

    func title(for name: String) -> String { greeter.greeting(for: name) }
}

final class NightBannerController {
    @Inject(greetingInjector, { $0.resolveGreeter() }) var greeter
}
