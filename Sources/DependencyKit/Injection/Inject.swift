/// A property that resolves its value from an injector's container the first time it is read, and
/// keeps it for its owner.
///
/// The spelling of `lazy var greeter = dependencies.resolveGreeter()` that needs no `mutating`: the
/// value lives in a box the wrapper holds by reference, so a struct reads it from non-mutating
/// methods and its callers keep `let`. The closure calls a resolve of the injector's container
/// protocol, so it is checked by the compiler like any call:
///
/// ```swift
/// struct WelcomeViewModel {
///     @Inject(greetingInjector, { $0.resolveGreeter() }) var greeter
///
///     func title(for name: String) -> String { greeter.greeting(for: name) }
/// }
/// ```
///
/// - **Which container.** The one in effect for the task that reads the property — scoped (a
///   test's, a `withDependencies` block's) or global, as `dependencies` would return.
/// - **Once per owner and container.** Later reads return the same value while the container in
///   effect (and the overrides in effect, if any) is the one it was resolved from; copies of a struct
///   share it. When the reader's container is another one — the next test's, a swapped global
///   container, a `withOverrides` block — the property resolves again from it, so a holder that
///   outlives its test never serves that test's value to the next. Two threads that read first at
///   the same time may each resolve, and the first to finish wins.
/// - **Anywhere.** Structs, classes, actors and `@MainActor` types; the wrapper is `Sendable` when
///   the value is.
/// - **Cost.** A read after the first reads the container in effect (as `dependencies` does), takes the
///   holder's lock for a load and compares two identities. The lock keeps the value, the container it
///   came from and the overrides together, which one atomic word could not without an allocation per
///   resolve; it is held only for that load, never while a resolve runs.
@propertyWrapper
public struct Inject<Container: Sendable, Value: Sendable>: Sendable {
    private let injector: Injector<Container>
    private let resolve: @Sendable (Container) -> Value
    private let box = Locked<Resolved?>(nil)

    /// A value with the container and the overrides it was resolved from, which it keeps alive so
    /// that their identities are never reused while it is kept.
    private struct Resolved: Sendable {
        let value: Value
        let container: Container
        let overrides: OverrideSet?
    }

    /// Creates the property from the resolve that makes its value.
    /// - Parameters:
    ///   - injector: The injector whose container in effect serves the value.
    ///   - resolve: Calls a resolve of the container in effect.
    public init(_ injector: Injector<Container>, _ resolve: @escaping @Sendable (Container) -> Value) {
        self.injector = injector
        self.resolve = resolve
    }

    /// The value, resolved on the first read from the container in effect, and again when the
    /// container (or the overrides) in effect is no longer the one it came from.
    public var wrappedValue: Value {
        let container = injector.dependencies
        let overrides = DiagnosticsWord.hasOverrides(DiagnosticsWord.load()) ? OverrideSet.current : nil
        if let kept = box.withLock({ $0 }), Self.identity(of: kept.container) == Self.identity(of: container),
            kept.overrides === overrides
        {
            return kept.value
        }
        let value = resolve(container)
        return box.withLock { stored in
            if let kept = stored, Self.identity(of: kept.container) == Self.identity(of: container),
                kept.overrides === overrides
            {
                return kept.value
            }
            stored = Resolved(value: value, container: container, overrides: overrides)
            return value
        }
    }

    /// Creates the property from a resolve of a protocol that refines the injector's container
    /// protocol: an app's own resolves on top of a library's container.
    ///
    /// The injector's container type (`any WeatherDependency`, the library's) has no app resolve;
    /// name the refined protocol once and the closure calls its resolves. A container in effect that
    /// is not a `Refined` stops with a message naming both types, as
    /// ``Injector/dependencies(as:)`` does:
    ///
    /// ```swift
    /// struct ReportScreenModel {
    ///     @Inject(weatherInjector, as: (any WeatherAppDependencies).self, { $0.resolveAnalytics() })
    ///     var analytics: any Analytics
    /// }
    /// ```
    /// - Parameters:
    ///   - injector: The injector whose container in effect serves the value.
    ///   - refined: The protocol that declares the resolve, refining the injector's container protocol.
    ///   - resolve: Calls a resolve of the container in effect, as `Refined`.
    public init<Refined>(
        _ injector: Injector<Container>, as refined: Refined.Type, _ resolve: @escaping @Sendable (Refined) -> Value
    ) {
        self.injector = injector
        self.resolve = { container in
            guard let refined = container as? Refined else {
                fatalError(
                    "The container in effect, \(type(of: container as Any)), is not a \(Refined.self): install a "
                        + "container of the refined protocol (`setDefault { … }` at launch), or read it in a test "
                        + "whose container is one.")
            }
            return resolve(refined)
        }
    }

    private static func identity(of container: Container) -> ObjectIdentifier {
        ObjectIdentifier(container as AnyObject)
    }
}
