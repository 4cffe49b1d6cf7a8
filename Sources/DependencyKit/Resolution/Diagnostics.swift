/// Cycle checking and resolution tracing for every DependencyKit container.
///
/// Every resolution the engine performs — a resolve method that builds its value with
/// `fresh {}`, a shared instance, a factory, a configurator, the tagged registry — passes one
/// hook. With cycle checking off and nothing traced, that hook is a single relaxed atomic load
/// and a compare; otherwise it pushes the resolution on the current task's *resolution
/// chain*, a task-local linked list: child tasks see their parent's chain, and concurrent
/// tasks (or tests running in parallel) never see each other's.
///
/// ## Cycles
///
/// ```swift
/// final class Broken: DependencyContainer {
///     func resolveA() -> A { fresh { A(b: resolveB()) } }
///     func resolveB() -> B { fresh { B(a: resolveA()) } }
/// }
/// Broken().resolveA()
/// // Fatal error: Dependency cycle: A → B → A
/// //   resolveA() -> A [fresh, Broken]
/// //   resolveB() -> B [fresh, Broken]
/// //   resolveA() -> A [fresh, Broken]
/// ```
///
/// See ``checksCycles`` for the policy.
///
/// ## Tracing
///
/// ```swift
/// let (greeter, graph) = Diagnostics.trace { greetingInjector.dependencies.resolveGreeter() }
/// print(graph.renderText())
/// // resolveGreeter() → TimeOfDayGreeter as Greeter [fresh, CoreGreetingDependency]
/// // └─ resolveClock() → SystemClock as Clock [live, CoreGreetingDependency]
/// ```
public enum Diagnostics {
    /// Whether resolutions are checked for cycles, process-wide.
    ///
    /// When on, every resolution is pushed on the current task's resolution chain, and one that
    /// would close a cycle stops the process with a message naming the chain (a throwing
    /// resolution throws ``CycleError`` instead). When off, resolution costs one relaxed load more
    /// than undiagnosed code, and a cycle is named only once it nests 512 resolutions deep on one
    /// thread.
    ///
    /// The default is `true` in debug builds of DependencyKit and
    /// `false` in release builds (see ``checksCyclesByDefault``): a debug build
    /// reports a cycle the first time it is reached, with the whole chain, while a release build
    /// pays nothing for a check that a tested graph does not need. Set it at launch, from any
    /// thread, to override the default — for example on in a release build under test:
    ///
    /// ```swift
    /// Diagnostics.checksCycles = true
    /// ```
    ///
    /// A resolution is the same as one in progress when its name, produced type and container
    /// are the same. Resolutions that return a value stop the process with ``Diagnostics/CycleError``'s
    /// message, because they have nothing else to return; throwing resolutions (the tagged
    /// registry) throw the error. An override that decorates the implementation it overrides
    /// (`super.resolveX()` inside `fresh {}` in `resolveX()`) nests the same resolution
    /// directly inside itself; that is not a cycle unless it goes on for 16 levels.
    ///
    /// The chain follows tasks, not threads: a resolve that starts child tasks which resolve
    /// it again is caught; two tasks resolving the same thing at the same time are not a cycle.
    public static var checksCycles: Bool {
        get { DiagnosticsWord.checksCycles(DiagnosticsWord.load()) }
        set { DiagnosticsWord.setChecksCycles(newValue) }
    }

    /// Whether this build of DependencyKit checks cycles unless told otherwise: `true` in a debug
    /// build, `false` in a release build.
    public static var checksCyclesByDefault: Bool { DiagnosticsWord.checksCyclesByDefault }

    /// The resolutions in progress in the current task, outermost first.
    ///
    /// Useful in a log line or a breakpoint inside a resolve. Empty when cycle checking is off
    /// and nothing is traced, because the chain is then not kept.
    public static var resolutionChain: [Diagnostics.Step] {
        ResolutionFrame.current?.liveChain ?? []
    }
}

extension Diagnostics {
    /// A resolution that requires itself, with the whole chain that leads back to it.
    ///
    /// When cycle checking is on (see ``Diagnostics/checksCycles``), the resolution that would
    /// close a cycle does not run. Resolutions that return a value stop the process with this
    /// error's ``description``; resolutions that already throw, such as the tagged registry's,
    /// throw it.
    ///
    /// ```text
    /// Dependency cycle: TimeOfDayGreeter → NetworkClock → TimeOfDayGreeter
    ///   resolveGreeter() -> TimeOfDayGreeter [fresh, CoreGreetingDependency]
    ///   resolveClock() -> NetworkClock [fresh, CoreGreetingDependency]
    ///   resolveGreeter() -> TimeOfDayGreeter [fresh, CoreGreetingDependency]
    /// ```
    public struct CycleError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The resolutions in the cycle, outermost first; the last one is the first one again.
        public let chain: [Step]

        /// Creates the error for a chain whose last step repeats its first.
        /// - Parameter chain: The resolutions in the cycle, outermost first.
        package init(chain: [Step]) {
            self.chain = chain
        }

        /// The chain on one line: the types its resolutions produce, joined by arrows — or their
        /// names, when two resolutions in the cycle produce the same type (tagged registrations).
        public var summary: String {
            let types = chain.map(\.requestedType)
            let distinct = Set(types.dropLast()).count == types.count - 1
            return (distinct ? types : chain.map(\.name)).joined(separator: " → ")
        }

        /// The chain as a summary line followed by one line per resolution.
        public var description: String {
            (["Dependency cycle: \(summary)"] + chain.map { "  \($0)" }).joined(separator: "\n")
        }

        /// What the process prints when a cycle stops it.
        var trapMessage: String {
            description + "\n"
                + "A resolution required itself before returning. Break the cycle, for example by resolving\n"
                + "one side lazily (a closure or a Factory) instead of in an initializer.\n"
                + "Diagnostics.checksCycles turns this check on or off."
        }
    }

    /// One resolution in a chain: what was asked for, how, and from which container.
    ///
    /// Steps name types and resolve methods only, never the values involved, so they are safe
    /// to log.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// The resolve's name, usually the resolve method's `#function` (`resolveGreeter()`).
        public let name: String
        /// The type the resolution was asked for: the result type of the closure given to `fresh {}`
        /// or `shared {}` (usually the concrete type), the requested type for the tagged registry
        /// (usually a protocol, written without `any`).
        public let requestedType: String
        /// How the value is produced.
        public let lifetime: Lifetime
        /// The class of the container that served the resolve, if it came from a container.
        public let container: String?
        /// The class whose code built the value, when the resolve ran code a container class
        /// inherited: `CoreGreetingDependency` for a resolve that `EveningDependency` serves without
        /// overriding.
        /// `nil` when the container's own class implements it, or when it is not known.
        public let implementer: String?

        /// Creates a step.
        /// - Parameters:
        ///   - name: The resolve's name.
        ///   - requestedType: The type the resolve returns.
        ///   - lifetime: How the value is produced.
        ///   - container: The class of the container serving it.
        ///   - implementer: The class whose code built the value; `nil`, or the same as `container`,
        ///     when the container's own class implements the resolve.
        package init(
            name: String,
            requestedType: String,
            lifetime: Lifetime,
            container: String?,
            implementer: String? = nil
        ) {
            self.name = name
            self.requestedType = requestedType
            self.lifetime = lifetime
            self.container = container
            self.implementer = implementer == container ? nil : implementer
        }

        /// The step on one line: `resolveClock() -> SystemClock [fresh, CoreGreetingDependency]`, or
        /// `[fresh, EveningDependency, inherited from CoreGreetingDependency]` when the container
        /// runs code it inherited.
        public var description: String { "\(name) -> \(requestedType) [\(details)]" }

        /// How and where: `fresh, EveningDependency, inherited from CoreGreetingDependency`.
        var details: String {
            [lifetime.rawValue, container, implementer.map { "inherited from \($0)" }].compactMap { $0 }
                .joined(separator: ", ")
        }
    }
}

extension Diagnostics {
    /// How a resolution produced its value.
    public enum Lifetime: String, Sendable, Hashable, CaseIterable {
        /// A new value on every resolve (the default).
        case fresh
        /// A new value on every resolve that reaches the outside world — the network, the disk, the
        /// clock, randomness (`live {}`). Inside a test guarded by DependencyKitTesting, serving one
        /// from production code records an issue.
        case live
        /// One instance per container, held strongly.
        case shared
        /// One instance per container while someone else holds it.
        case weakShared
        /// One instance per container that no override scope owns, built with every override masked
        /// (`appShared {}`).
        case appShared
        /// One instance per generation of a named scope, until the scope is reset (`shared(in:) {}`).
        case scoped
        /// One instance per top-level resolution, shared by everything it resolves (`perGraph {}`).
        case perGraph
        /// Made by a `Factory` from a dependency and a payload.
        case factory
        /// Configured by a `Configurator` from a dependency and a payload.
        case configurator
        /// Served by a tagged registry.
        case registry

        /// Whether resolutions with this lifetime carry a run-time payload, so that two of them are
        /// never the same resolution (a factory creating a module of its own kind is recursion).
        @inlinable
        var carriesPayload: Bool {
            // A `switch`, not `==`: `==` on a raw-value enum can compare the raw strings, which
            // the hot path's constant folding does not see through (5 % more instructions per graph).
            switch self {
            case .factory, .configurator: true
            default: false
            }
        }

        /// Whether resolutions with this lifetime reach the outside world (`live {}`): the leaves the
        /// test guard watches.
        package var reachesOutside: Bool { if case .live = self { true } else { false } }
    }
}
