internal import _DependencyKitShims

/// The warning that a long-lived container's `shared {}` instance is being built again in scope after
/// scope: what a per-request override on a server does, where each request's scope owns the store it
/// uses, so what one request stored is gone in the next.
///
/// Counted per container and resolve, in the container's own table, only while an override scope builds
/// its own instance (a path that never runs when no override scope is alive). A test that gives each
/// test a container of its own — a trait, `withDependencies` with a new container — builds each
/// instance once per container and never reaches the threshold.
@usableFromInline
enum ScopeRebuilds {
    /// Distinct override scopes of one container that build the same `shared {}` instance before the
    /// warning is written.
    static let threshold = 8

    /// The warnings written so far, oldest first: for tests, which cannot read the standard error stream.
    package static let written = Locked<[String]>([])

    /// Counts one more override scope building `key`'s instance of `container`, and says so once when the
    /// count reaches ``threshold``.
    @usableFromInline
    static func countBuild(_ key: SharedKey, name: String, type: Any.Type, of container: DependencyContainer) {
        // How many override scopes built the instance, in a cell of the container's table keyed by the
        // call site and this type (a call site is either synchronous or `async`, so the kind is moot).
        let counterKey = SharedKey(
            fileID: key.fileID, line: key.line, column: key.column, type: Self.self, kind: .strong)
        let count = container.sharedInstances.cell(for: counterKey) { AtomicWord(0) }
        guard count.add(1) + 1 == threshold else { return }
        let containerType = Swift.type(of: container)
        // The warning's text: what is lost, where, and the two fixes.
        let message = """
            DependencyKit warning: the shared \(type) of \(name) (\(key)) in \(containerType) was built again in \
            \(threshold) override scopes of one \(containerType). An override scope owns every shared instance \
            resolved inside it, so each scope (a per-request `withOverrides`, say) gets an empty instance of its \
            own, and what one scope stores in it is gone in the next. If the instance is the app's — a store, a \
            pool, a cache, a client — declare it with `appShared { … }` instead of `shared { … }`: it is then \
            built with every override masked and served by the container in every scope. To give one scope a \
            particular instance, hand it in: `.override({ $0.\(name) }, with: instance)`. This warning is \
            shown once per container and resolve.
            """
        written.withLock { $0.append(message) }
        dk_write_standard_error(message + "\n")
    }
}
