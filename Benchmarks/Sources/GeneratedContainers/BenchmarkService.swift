/// A leaf dependency of the width benchmarks.
public protocol BenchmarkService: Sendable {
    /// Which service this is.
    var id: Int { get }
}

/// The only ``BenchmarkService``: a small immutable struct, like most fresh dependencies.
public struct BenchmarkServiceImpl: BenchmarkService {
    public let id: Int

    /// Creates service number `id`.
    public init(id: Int) { self.id = id }
}

/// A dependency built over a ``BenchmarkService``.
public protocol BenchmarkWorker: Sendable {
    /// The service this worker was built over.
    var service: any BenchmarkService { get }
}

/// The only ``BenchmarkWorker``.
public struct BenchmarkWorkerImpl: BenchmarkWorker {
    public let service: any BenchmarkService

    /// Creates a worker over `service`.
    public init(service: any BenchmarkService) { self.service = service }
}
