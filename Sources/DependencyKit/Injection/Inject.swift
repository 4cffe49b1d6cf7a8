/// A property that resolves its value from an injector's container the first time it is read, and
/// keeps it for its owner.
///
/// The spelling of `lazy var greeter = dependencies.resolveGreeter()` that needs no `mutating`: the
/// value lives in a box the wrapper holds by reference, so a struct reads it from non-mutating
/// methods and its callers keep `let`. The closure calls a resolve of the injector's container
/// protocol, so it is checked by the compiler like any call. Name the injector once, next to the
/// module's `Has…` protocol:
///
/// ```swift
/// typealias InjectGreeting<Value: Sendable> = Inject<GreetingInjector, Value>
///
/// struct WelcomeViewModel {
///     @InjectGreeting({ $0.resolveGreeter() }) var greeter
///
///     func title(for name: String) -> String { greeter.greeting(for: name) }
/// }
/// ```
///
/// - **Which container.** The one in effect for the task that first reads the property — scoped
///   (a test's, a `withDependencies` block's) or global, as `dependencies` would return.
/// - **Once per owner.** Later reads return the same value; copies of a struct share it. Two
///   threads that read first at the same time may each resolve, and the first to finish wins.
/// - **Anywhere.** Structs, classes, actors and `@MainActor` types; the wrapper is `Sendable` when
///   the value is.
@propertyWrapper
public struct Inject<Injector: DependencyInjecting, Value: Sendable>: Sendable {
    private let resolve: @Sendable (Injector.Container) -> Value
    private let box = Locked<Value?>(nil)

    /// Creates the property from the resolve that makes its value.
    /// - Parameter resolve: Calls a resolve of the container in effect.
    public init(_ resolve: @escaping @Sendable (Injector.Container) -> Value) {
        self.resolve = resolve
    }

    /// The value, resolved on the first read.
    public var wrappedValue: Value {
        if let value = box.withLock({ $0 }) { return value }
        let value = resolve(Injector.dependencies)
        return box.withLock { stored in
            if let stored { return stored }
            stored = value
            return value
        }
    }
}
