public import DependencyKit
internal import Foundation

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
    /// over (`sending`) to the factory, which returns this very instance from every creation in
    /// the isolation domain that made the stub — on the actor the test runs on, or, in a
    /// nonisolated test, in its task (outside any task, on its thread). A creation from another
    /// domain would share a non-`Sendable` object between two domains: it stops the test with a
    /// message instead.
    ///
    /// ```swift
    /// let card = GreetingCardDouble()
    /// let list = GreetingListModel(cardFactory: .stub(card))
    /// ```
    /// - Parameters:
    ///   - module: The instance to return.
    ///   - dependency: What ``DependencyKit/Factory/dependency`` returns, if the code under
    ///     test reads it.
    ///   - isolation: The isolation domain the module stays in: the caller's.
    /// - Returns: The stub factory.
    public static func stub(
        _ module: sending Module,
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing(),
        isolation: isolated (any Actor)? = #isolation
    ) -> Factory {
        Factory(makeDependency: dependency, create: returningHeld(DomainBound(module, isolation: isolation)))
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
/// captures only the holder, not the module's metatype.
private func returningHeld<Module, Payload>(_ held: DomainBound<Module>) -> @Sendable (Payload) -> Module {
    { _ in held.value }
}

/// A value that is not `Sendable`, read only in the isolation domain that made it: on the actor it
/// was made on; made outside any actor, in the task that made it; outside any task, on the thread.
///
/// `@unchecked Sendable` is sound because every read checks that domain and stops otherwise, naming
/// the fix: the value is never reached from a second domain, which is what `Sendable` guards
/// against. (On Apple platforms older than macOS 14 / iOS 17, whose runtime cannot check an actor's
/// isolation synchronously, a stub made on an actor is not checked.)
private final class DomainBound<Value>: @unchecked Sendable {
    private let held: Value
    private let actor: (any Actor)?
    /// The nonisolated domain that made it; `nil` when an actor made it.
    private let domain: AnyHashable?

    /// The identity of the nonisolated domain running now: the task's hash, else the thread's identifier,
    /// two types, so that a task is never taken for a thread.
    private static var currentDomain: AnyHashable {
        withUnsafeCurrentTask { $0.map { AnyHashable($0.hashValue) } } ?? AnyHashable(ObjectIdentifier(Thread.current))
    }

    init(_ value: sending Value, isolation: isolated (any Actor)?) {
        held = value
        actor = isolation
        domain = isolation == nil ? Self.currentDomain : nil
    }

    /// The value, after checking that the caller runs in its domain.
    var value: Value {
        let message =
            "A Factory.stub(_:) made with a non-Sendable \(Value.self) created it outside the isolation domain "
            + "that made the stub; the module would be shared between two domains. Make the module Sendable "
            + "and use `stub(returning:)`, or make one per creation with `stub { payload in ... }`."
        if let actor {
            if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
                actor.preconditionIsolated(message)
            }
        } else if Self.currentDomain != domain {
            fatalError(message)
        }
        return held
    }
}
