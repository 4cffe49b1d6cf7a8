/// The base class of every DependencyKit container.
///
/// A container is an ordinary Swift protocol whose requirements are resolve methods, plus an
/// `open` class that implements every one of them. The protocol refines this class, so a
/// container is always a class held by reference; this class gives every container an identity, which is
/// what lets the engine keep per-container state such as shared instances and install the
/// container without boxing it.
///
/// You rarely use `DependencyContainer` directly. Declare your container protocol and the class:
///
/// ```swift
/// protocol GreetingDependency: DependencyContainer {
///     func resolveClock() -> any Clock
///     func resolveGreeter() -> any Greeter
/// }
///
/// class CoreGreetingDependency: DependencyContainer, GreetingDependency, @unchecked Sendable {
///     func resolveClock() -> any Clock { live { SystemClock() } }
///     func resolveGreeter() -> any Greeter { fresh { TimeOfDayGreeter(clock: resolveClock()) } }
/// }
/// ```
///
/// Each builder builds the type its resolve declares (see ``ResolveBuilder``): `live { SystemClock() }`
/// builds an `any Clock`, so a subclass or a test's `.override` can answer with any clock.
///
/// The class implements every requirement itself — the compiler rejects it otherwise — so a
/// subclass that overrides one resolve can never be silently ignored. Test doubles that
/// implement only one resolve adopt ``PartialContainer`` and take defaults for the rest.
///
/// ## Sendable
///
/// Containers are shared by every thread that resolves, so they are `Sendable`. A non-final
/// class can only state that with `@unchecked Sendable`; this class is sound because it holds
/// nothing mutable of its own outside a lock. Subclasses keep that promise by storing only
/// `let` properties of `Sendable` types (configuration values, other containers) — a resolve
/// method that needs state should use a shared instance instead of a stored `var`.
///
/// ## Isolation
///
/// This class is `nonisolated`, and every subclass inherits that, in any module: a container
/// class, and every test double that subclasses it, needs no `nonisolated` of its own, even in
/// a module whose default isolation is `MainActor`. Without it, a subclass declared in such a
/// module would be main-actor isolated and each of its `override func`s would be rejected for
/// its isolation. See the Concurrency and Actors article for what else a main-actor module marks.
nonisolated open class DependencyContainer: @unchecked Sendable {
    /// The shared instances of this container (see `shared(_:fileID:line:column:_:)`).
    ///
    /// Nothing reads it unless a resolve asks for a shared instance, so fresh resolves never
    /// touch it; a container that never shares pays one small lock and one atomic word.
    @usableFromInline
    package let sharedInstances = SharedInstances()

    /// This container's serial number: what an `@Inject` holder keeps to know its value came from it.
    package let serialNumber = SerialNumber.next()

    /// Creates a container.
    public init() {}

    deinit {
        #if !PublicAPIOnly
            ContainerConversions.end(sharedInstances.conversions)  // frees the conversions it kept
        #endif
    }
}

/// A container that implements only some of its protocol's resolves and takes the protocol's
/// defaults for the rest: a test double.
///
/// A container protocol gives defaults only to containers that adopt this marker, in an
/// extension constrained to it. The production class does not adopt it, so it must implement
/// every resolve itself: forgetting one is the compile error "type 'CoreGreetingDependency' does
/// not conform to protocol 'GreetingDependency'", not an override that the protocol silently
/// ignores.
///
/// ```swift
/// extension GreetingDependency where Self: PartialContainer {
///     func resolveClock() -> any Clock { live { SystemClock() } }
///     func resolveGreeter() -> any Greeter { fresh { TimeOfDayGreeter(clock: resolveClock()) } }
/// }
///
/// final class NightDouble: DependencyContainer, GreetingDependency, PartialContainer, @unchecked Sendable {
///     func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 23) } }
/// }
/// // resolveGreeter() comes from the defaults and reads the fixed clock.
/// ```
public protocol PartialContainer: DependencyContainer {}

extension DependencyContainer {
    /// What a resolve builds its value with: ``fresh(name:_:)`` and
    /// ``live(name:_:)``.
    ///
    /// ``DependencyContainer`` adopts it, so every container has these methods; you never adopt it
    /// yourself. They live in a protocol extension rather than on the class so that each call knows
    /// the class whose code made it: a resolve that `EveningDependency` inherits from
    /// `CoreGreetingDependency` shows up in traces as inherited, one it overrides as its own.
    public protocol Resolving: AnyObject, Sendable {}
}

// Every container adopts it, so every container has `fresh {}` and `live {}`.
extension DependencyContainer: DependencyContainer.Resolving {}

extension DependencyContainer.Resolving {
    /// Builds a fresh value inside a resolve method, visible to cycle detection and tracing.
    ///
    /// Wrap every resolve's body in `fresh` (or ``live(name:_:)``,
    /// `shared {}`): a cycle is then named in every build, with this resolve in the chain, and
    /// `Diagnostics.trace` shows it.
    ///
    /// ```swift
    /// open func resolveGreeter() -> any Greeter {
    ///     fresh { TimeOfDayGreeter(clock: resolveClock()) }
    /// }
    /// ```
    ///
    /// The body builds the type the resolve declares, here `any Greeter`, so an override may answer
    /// with any greeter; it may be statements followed by the value (see
    /// ``DependencyContainer/ResolveBuilder``).
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func fresh<T>(
        name: String = #function,
        @DependencyContainer.ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        try withResolution(name, of: T.self, lifetime: .fresh, container: self, implementer: Self.self, make)
    }

    /// Builds a fresh value asynchronously inside an `async` resolve method.
    ///
    /// See ``fresh(name:_:)``.
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func fresh<T>(
        name: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        @DependencyContainer.ResolveBuilder<T> _ make: () async throws -> T
    ) async rethrows -> T {
        try await withResolution(
            name,
            of: T.self,
            lifetime: .fresh,
            container: self,
            implementer: Self.self,
            isolation: isolation,
            make
        )
    }

    /// Builds a fresh value that reaches the outside world: the network, the disk, the clock,
    /// randomness.
    ///
    /// In production it is exactly ``fresh(name:_:)``. Inside a test guarded by
    /// DependencyKitTesting (the `.dependencies(_:)` trait), serving it with this code — the
    /// production implementation, because the test's container did not override the resolve —
    /// records a test issue naming the resolve, the container and the override to write. Mark
    /// the leaves of your graph with it, and a test can never reach production by accident:
    ///
    /// ```swift
    /// open func resolveClock() -> any Clock { live { SystemClock() } }
    /// ```
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics and test issues; the calling function by
    ///     default.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func live<T>(
        name: String = #function,
        @DependencyContainer.ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        try withResolution(name, of: T.self, lifetime: .live, container: self, implementer: Self.self, make)
    }

    /// Builds a fresh value that reaches the outside world, asynchronously.
    ///
    /// See ``live(name:_:)``.
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics and test issues; the calling function by
    ///     default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func live<T>(
        name: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        @DependencyContainer.ResolveBuilder<T> _ make: () async throws -> T
    ) async rethrows -> T {
        try await withResolution(
            name,
            of: T.self,
            lifetime: .live,
            container: self,
            implementer: Self.self,
            isolation: isolation,
            make
        )
    }
}
