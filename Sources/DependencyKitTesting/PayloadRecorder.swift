internal import DependencyKit

/// Records the payloads a stub factory or configurator received, from any thread.
///
/// ```swift
/// let recorder = PayloadRecorder<GreetingCell.Payload>()
/// let configurator = GreetingCell.Configurator.stub(recordingInto: recorder)
/// let model = GreetingListModel(cellConfigurator: configurator)
///
/// model.configure(cell, at: 0)
/// #expect(recorder.payloads.map(\.name) == ["Ada"])
/// ```
public final class PayloadRecorder<Payload: Sendable>: Sendable {
    private let recorded = Locked<[Payload]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Every payload received, in the order the calls finished recording.
    public var payloads: [Payload] { recorded.withLock { $0 } }

    /// How many calls were recorded.
    public var count: Int { recorded.withLock { $0.count } }

    /// Adds `payload` to the record.
    /// - Parameter payload: The payload a stub received.
    public func record(_ payload: Payload) {
        recorded.withLock { $0.append(payload) }
    }

    /// Wraps `next` so that each call is recorded first.
    ///
    /// Built here, where `Payload` is a plain generic parameter, so the closure captures no
    /// module metatype.
    func recording<Result>(
        then next: @escaping @Sendable (Payload) -> Result
    ) -> @Sendable (Payload) -> Result {
        { payload in
            self.record(payload)
            return next(payload)
        }
    }

    /// A configuration closure that only records the payload.
    func recordingConfiguration<Target>() -> @Sendable (Target, Payload) -> Void {
        { _, payload in self.record(payload) }
    }

    /// Forgets every recorded payload.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
