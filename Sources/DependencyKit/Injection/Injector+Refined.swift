// The container in effect read as the richer protocol an app declares on top of a library's, through
// the kept conversions of Internal/RuntimeShortcuts.swift (section 4).

extension Injector {
    /// The container in effect, as the richer container protocol your app declares on top of a
    /// library's.
    ///
    /// An app adds its own resolves by refining the library's protocol and subclassing its
    /// container; this accessor gives app code a typed container without a cast at each call
    /// site. Wrap it once in the app's own `HasDependencies`-style protocol:
    ///
    /// ```swift
    /// protocol WeatherGreetingDependency: GreetingDependency { func resolveWeather() -> any Weather }
    /// final class WeatherDependency: CoreGreetingDependency, WeatherGreetingDependency, @unchecked Sendable { ... }
    ///
    /// protocol HasWeatherDependencies {}
    /// extension HasWeatherDependencies {
    ///     var dependencies: any WeatherGreetingDependency {
    ///         greetingInjector.dependencies(as: (any WeatherGreetingDependency).self)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter type: The refined container type, such as `(any AppDependencies).self`.
    /// - Returns: The container in effect, as `type`.
    /// - Precondition: The container in effect conforms to `type`. Install your app's container
    ///   at launch and base test containers on it; a mismatch stops with a message naming both
    ///   types.
    @inlinable
    @inline(__always)
    public func dependencies<Refined>(as type: Refined.Type) -> Refined {
        // The cast is a conformance lookup; a container keeps each conversion it made (see
        // `ContainerConversions`), so only its first read as `Refined` pays it: the copy the container
        // keeps of itself, else a cast kept for the next reads.
        if let kept = currentConversion(as: type) { return kept }
        return Self.convertOnce(current, to: type)
    }

    /// `container` as `Refined`, kept by the container for its next reads; stops with a message
    /// naming both types when it is not one.
    @usableFromInline
    static func convertOnce<Refined>(_ container: Container, to _: Refined.Type) -> Refined {
        guard let refined = container as? Refined else {
            // Inside a test process, work that escaped every test's task reads a test's container and is
            // reported, rather than stopping the run (the test guard's seam), whether or not a test is still
            // running; a test's own task stops, and so does a process that never guarded a test.
            if Interception.current.test == nil,
                let substitute = Interception.injectionObserver?.containerForEscapedWork(
                    as: Refined.self, insteadOf: container)
            {
                return substitute
            }
            fatalError(
                "The container in effect is a \(Swift.type(of: container as Any)), which is not a \(Refined.self). "
                    + "Install a container that conforms to \(Refined.self) at launch, and derive test containers from it."
            )
        }
        #if !PublicAPIOnly
            if let base = container as AnyObject as? DependencyContainer {
                _ = ContainerConversions.add(refined, of: base, to: base.sharedInstances.conversions)
            }
        #endif
        return refined
    }

    /// The container in effect, as `Refined`, if the container converted itself to `Refined`
    /// before (see ``ContainerConversions``); `nil` otherwise, for a container that is not a
    /// ``DependencyContainer``, and always in the public-API build.
    ///
    /// Read without a cast: the copy the container keeps, found in its list of conversions. The
    /// copy is read while its container is alive: a scope frame the current task keeps, or an
    /// installed box, protected by this thread's hazard slot while it is read (see ``global``).
    @inlinable
    @inline(__always)
    package func currentConversion<Refined>(as _: Refined.Type) -> Refined? {
        #if PublicAPIOnly
            return nil
        #else
            if _slowPath(liveScopes.loadRelaxed() != 0),
                let (frame, _, processWide) = ScopeFrame.innermost(
                    from: ScopeFrame.borrowedInnermost, serving: Container.self, keepingFrame: true)
            {
                defer { if _slowPath(processWide) { HazardSlot().clear() } }
                return frame._withUnsafeGuaranteedRef { frame in
                    ScopeFrame.kept(in: frame.owner.sharedInstances.conversions, as: Refined.self, of: frame.owner)
                }
            }
            return readingInstalledBox { box in
                box.conversions.flatMap { ScopeFrame.kept(in: $0, as: Refined.self, of: box.container) }
            }
        #endif
    }
}
