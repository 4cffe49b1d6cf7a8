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
/// - **It keeps its value, not its scope.** The holder keeps the value and two serial numbers, those
///   of the container and of the override scope it came from, so a holder that outlives its test or
///   its `withOverrides` block keeps none of their instances: they are released when the scope ends. A
///   serial number is never reused, so a scope that has ended is never taken for the one in effect,
///   even a new one at the same address.
/// - **Anywhere.** Structs, classes, actors and `@MainActor` types; the wrapper is `Sendable` when
///   the value is.
/// - **Cost.** A read after the first reads the container in effect (as `dependencies` does) and its
///   serial number, takes the holder's lock and compares two numbers under it, then copies the value
///   out. The lock keeps the value and where it came from together, which one atomic word could not
///   without an allocation per resolve; it is held only for that, never while a resolve runs.
@propertyWrapper
public struct Inject<Container: Sendable, Value: Sendable>: Sendable {
    private let injector: Injector<Container>
    private let resolve: @Sendable (Container) -> Value
    private let box = Locked<Resolved?>(nil)

    /// A value with the serial numbers of the container and the override scope it was resolved from.
    /// A serial number is never reused, so an ended scope or a freed container is never taken for the
    /// one in effect, even at the same address, and a number keeps none of their instances alive. A
    /// struct, not a tuple: a tuple's generic metadata is looked up on every read.
    private struct Resolved: Sendable {
        let value: Value
        let origin: Origin
    }

    /// Where a value came from: the container's serial number and the override scope's (`0` for none).
    private struct Origin: Sendable {
        let container: UInt64
        let overrides: UInt64
        /// A container that does not derive from ``DependencyContainer`` has no serial number
        /// (`container` is `0`): it is held weakly instead, which reads `nil` once it is gone.
        let unnumbered: Unnumbered?

        /// `@unchecked Sendable` is sound here: the weak reference is only loaded, an atomic operation
        /// of the runtime, and compared by identity.
        final class Unnumbered: @unchecked Sendable {
            weak var object: AnyObject?
            init(_ object: AnyObject) { self.object = object }
        }

        /// The origin of a value resolved now from `container`, with the override scope in effect.
        init(_ container: Container) {
            let object = container as AnyObject
            let serial = (object as? DependencyContainer)?.serialNumber ?? 0
            let overrides = DiagnosticsWord.hasOverrides(DiagnosticsWord.load()) ? Interception.overrides : nil
            (self.container, self.overrides) = (serial, (overrides as? any OverrideScope)?.serialNumber ?? 0)
            unnumbered = serial == 0 ? Unnumbered(object) : nil
        }

        func isSame(as other: Origin) -> Bool {
            guard container == other.container, overrides == other.overrides else { return false }
            guard container == 0 else { return true }
            return unnumbered?.object != nil && unnumbered?.object === other.unnumbered?.object
        }
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
        let origin = Origin(container)
        if let kept = box.withLock({ $0.flatMap { $0.origin.isSame(as: origin) ? $0.value : nil } }) { return kept }
        let value = resolve(container)
        return box.withLock { stored in
            if let kept = stored, kept.origin.isSame(as: origin) { return kept.value }
            stored = Resolved(value: value, origin: origin)
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
        self.init(injector) { resolve(Injector.convertOnce($0, to: Refined.self)) }
    }
}
