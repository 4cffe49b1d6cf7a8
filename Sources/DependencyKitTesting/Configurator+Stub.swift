public import DependencyKit

extension Configurator {
    /// A configurator that runs `configure` instead of the module's own `configure`.
    ///
    /// ```swift
    /// let configurator = GreetingCell.Configurator.stub { cell, payload in
    ///     cell.title = payload.name
    /// }
    /// ```
    /// - Parameters:
    ///   - dependency: What ``DependencyKit/Configurator/dependency`` returns, for customised
    ///     methods that read it; reading it from a stub made without one stops the test with a
    ///     message.
    ///   - configure: Runs for each configuration, with the module and the payload.
    /// - Returns: The stub configurator.
    public static func stub(
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing(),
        _ configure: @escaping @Sendable (Module, Module.Payload) -> Void
    ) -> Configurator {
        Configurator(makeDependency: dependency, configure: configure)
    }

    /// A configurator that configures nothing: every `configure` leaves the module as it is.
    ///
    /// ```swift
    /// let model = GreetingListModel(cellConfigurator: .stub())
    /// ```
    /// - Parameter dependency: What ``DependencyKit/Configurator/dependency`` returns, if the code
    ///   under test reads it.
    /// - Returns: The stub configurator.
    public static func stub(
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing()
    ) -> Configurator {
        Configurator(makeDependency: dependency, configure: configuringNothing())
    }

    /// A configurator that only records each payload in `recorder` and leaves the module as it
    /// is.
    ///
    /// ```swift
    /// let recorder = PayloadRecorder<GreetingCell.Payload>()
    /// let model = GreetingListModel(cellConfigurator: .stub(recordingInto: recorder))
    /// model.configure(cell, at: 0)
    /// #expect(recorder.count == 1)
    /// ```
    /// - Parameters:
    ///   - recorder: Receives every payload.
    ///   - dependency: What ``DependencyKit/Configurator/dependency`` returns, if the code under
    ///     test reads it.
    /// - Returns: The stub configurator.
    public static func stub(
        recordingInto recorder: PayloadRecorder<Module.Payload>,
        dependency: @autoclosure @escaping @Sendable () -> Module.Dependency = stubDependencyMissing()
    ) -> Configurator where Module.Payload: Sendable {
        Configurator(makeDependency: dependency, configure: recorder.recordingConfiguration())
    }
}

/// A configuration that leaves the module as it is. A free function, so that the closure
/// captures nothing, not even the module's metatype.
private func configuringNothing<Module, Payload>() -> @Sendable (Module, Payload) -> Void {
    { _, _ in }
}
