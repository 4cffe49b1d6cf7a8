extension Diagnostics {
    /// The failures of an eager start-up: every listed resolve that threw, together.
    public struct StartUpError: Error, CustomStringConvertible {
        /// What each listed resolve did, and the graph of them all.
        public let report: Report

        /// Every failure on a line of its own, then the resolution graph.
        public var description: String { "Start-up failed. \(report)" }
    }
}

extension DependencyContainer.Resolving {
    /// Resolves the listed dependencies now, so that what fails to build fails at launch rather
    /// than on first use, and reports every failure together.
    ///
    /// Call it on the container you are about to install. `shared {}` and `shared(in:) {}`
    /// instances it resolves are created now and kept; fresh values are built, checked and
    /// dropped:
    ///
    /// ```swift
    /// let container = CoreGreetingDependency()
    /// try container.warmUp([{ _ = $0.resolveClock() }, { _ = try $0.resolveGreetingBook() }])
    /// greetingInjector.dependencies = container
    /// ```
    ///
    /// Every resolve runs, even after one throws; the error lists each failure with the graph
    /// of the whole start-up. (Swift cannot enumerate a protocol's requirements, so the
    /// resolves are listed; see ``Diagnostics/validate(_:_:)``.)
    /// - Parameter resolves: The resolves to run now, each a closure receiving this container.
    /// - Returns: What each resolve did and the graph of the start-up, when none failed.
    /// - Throws: ``Diagnostics/StartUpError`` listing every resolve that threw.
    @discardableResult
    public func warmUp(_ resolves: [(Self) throws -> Void]) throws(Diagnostics.StartUpError) -> Diagnostics.Report {
        let report = Diagnostics.Report.run(self, resolves)
        guard report.succeeded else { throw Diagnostics.StartUpError(report: report) }
        return report
    }

    /// Resolves the listed asynchronous dependencies now, one after the other, and reports every
    /// failure together.
    ///
    /// ```swift
    /// try await container.warmUp([{ _ = try await $0.resolveDatabase() }])
    /// ```
    /// - Parameters:
    ///   - isolation: The caller's isolation, inherited by the resolves.
    ///   - resolves: The resolves to run now.
    /// - Returns: What each resolve did, when none failed.
    /// - Throws: ``Diagnostics/StartUpError`` listing every resolve that threw.
    @discardableResult
    public func warmUp(
        isolation: isolated (any Actor)? = #isolation,
        _ resolves: [(Self) async throws -> Void]
    ) async throws(Diagnostics.StartUpError) -> Diagnostics.Report {
        let report = await Diagnostics.Report.run(self, isolation: isolation, resolves)
        guard report.succeeded else { throw Diagnostics.StartUpError(report: report) }
        return report
    }
}
