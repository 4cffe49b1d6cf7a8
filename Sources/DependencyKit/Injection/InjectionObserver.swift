/// What the injection layer tells the test interceptor in effect (``Interception/test``), when it
/// conforms: facts about the work, for the observer to decide on. DependencyKitTesting's guard conforms;
/// without an observer, or with its default answers, the engine does what production does.
package protocol InjectionObserver: AnyObject, Sendable {
    /// A problem the work made, once per `key`: a malformed override. Returns `false` when the observer
    /// does not take it, and the caller stops with the message instead.
    func record(_ key: String, _ message: () -> String) -> Bool

    /// A global install in an injector of type `injectorType`, made while test scopes are live
    /// (`InstalledContainers.testScopes`); `serves` tells which containers the injector serves.
    func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool)

    /// A container for work that read `dependencies(as:)` where the container in effect, `inEffect`, is not a
    /// `Refined`; `nil` to stop with the message, as production does.
    func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf inEffect: Any) -> Refined?
}

extension InjectionObserver {
    package func record(_ key: String, _ message: () -> String) -> Bool { false }

    package func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {}

    package func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf _: Any) -> Refined? { nil }
}

extension Interception {
    /// The test interceptor in effect, when it observes injection.
    static var injectionObserver: (any InjectionObserver)? { test as? any InjectionObserver }
}
