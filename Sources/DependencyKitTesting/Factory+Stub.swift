public import DependencyKit

extension Factory {
    /// A factory that creates modules with `create` instead of the module's initialiser.
    ///
    /// Hand it to the code under test wherever it expects a factory, and decide in the test
    /// what every creation returns:
    ///
    /// ```swift
    /// let factory = GreetingCard.Factory.stub { name in
    ///     GreetingCard(dependency: .init(greeter: FixedGreeter("Hello")), payload: name)
    /// }
    /// ```
    /// - Parameters:
    ///   - dependency: What ``DependencyKit/Factory/dependency`` returns, for customised
    ///     creation methods that read it; reading it from a stub made without one stops the
    ///     test with a message.
    ///   - create: Makes the module for a payload.
    /// - Returns: The stub factory.
    public static func stub(
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing(),
        _ create: @escaping @Sendable (Module.Payload) -> Module
    ) -> Factory {
        Factory(makeDependency: dependency, create: create)
    }

    /// A factory whose every creation returns `module`.
    ///
    /// ```swift
    /// let card = GreetingCardDouble()
    /// let list = GreetingListModel(cardFactory: .stub(returning: card))
    /// list.select(row: 0)
    /// #expect(list.presented === card)
    /// ```
    /// - Parameters:
    ///   - module: The instance to return.
    ///   - dependency: What ``DependencyKit/Factory/dependency`` returns, if the code under
    ///     test reads it.
    /// - Returns: The stub factory.
    public static func stub(
        returning module: Module,
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing()
    ) -> Factory where Module: Sendable {
        Factory(makeDependency: dependency, create: { _ in module })
    }

    /// A factory whose every creation returns `module`, for any module — the spelling Pure's
    /// users know.
    ///
    /// Unlike ``stub(returning:dependency:)`` the module need not be `Sendable`: it is handed
    /// over (`sending`) to the factory, which returns this very instance from every creation.
    /// Use the factory where the test made it — one test, one isolation domain — since every
    /// caller of `create` gets the same non-`Sendable` object.
    ///
    /// ```swift
    /// let card = GreetingCardDouble()
    /// let list = GreetingListModel(cardFactory: .stub(card))
    /// ```
    /// - Parameters:
    ///   - module: The instance to return.
    ///   - dependency: What ``DependencyKit/Factory/dependency`` returns, if the code under
    ///     test reads it.
    /// - Returns: The stub factory.
    public static func stub(
        _ module: sending Module,
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing()
    ) -> Factory {
        Factory(makeDependency: dependency, create: returningHeld(Locked(module)))
    }

    /// A factory that records each payload in `recorder`, then creates the module with `create`.
    ///
    /// ```swift
    /// let recorder = PayloadRecorder<GreetingCard.Payload>()
    /// let factory = GreetingCard.Factory.stub(recordingInto: recorder) { _ in cardDouble }
    /// ```
    /// - Parameters:
    ///   - recorder: Receives every payload.
    ///   - dependency: What ``DependencyKit/Factory/dependency`` returns, if the code under
    ///     test reads it.
    ///   - create: Makes the module for a payload.
    /// - Returns: The stub factory.
    public static func stub(
        recordingInto recorder: PayloadRecorder<Module.Payload>,
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing(),
        _ create: @escaping @Sendable (Module.Payload) -> Module
    ) -> Factory where Module.Payload: Sendable {
        Factory(makeDependency: dependency, create: recorder.recording(then: create))
    }
}

/// The dependency of a stub made without one: reading it is a mistake in the test.
///
/// `@usableFromInline` only because the stubs' public default arguments name it.
/// - Returns: Never returns.
@usableFromInline
func stubDependencyMissing<Dependency>() -> Dependency {
    fatalError(
        "This stub was made without a dependency of type \(Dependency.self); pass `dependency:` to `stub`"
    )
}

/// A creation that returns the module `held` holds. A free function, so that the closure
/// captures only the lock, not the module's metatype.
private func returningHeld<Module, Payload>(_ held: Locked<Module>) -> @Sendable (Payload) -> Module {
    { _ in held.withLock { $0 } }
}
