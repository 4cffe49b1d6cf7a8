// A task-local binding that carries a typed error across `withValue`, which only rethrows: used by the
// resolution layer (a frame bound around an asynchronous resolution) and by the instances below it (a graph's
// frame, an asynchronous cell's creation), so it lives at the bottom of the layers.

extension TaskLocal {
    /// Runs `body` with `value` bound and returns its outcome, typed error included; inlinable, so that a
    /// top-level asynchronous resolve binding its graph is specialised in the resolving module.
    @inlinable
    func outcome<R, Failure: Error>(
        binding value: Value, isolation: isolated (any Actor)?, _ body: () async throws(Failure) -> R
    ) async -> Result<R, Failure> {
        await withValue(
            value,
            operation: { () async -> Result<R, Failure> in
                do throws(Failure) { return .success(try await body()) } catch { return .failure(error) }
            }, isolation: isolation)
    }
}
