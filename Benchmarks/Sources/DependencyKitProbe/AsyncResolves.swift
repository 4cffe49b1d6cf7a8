import AppCore
import DependencyKit

// What an `async` resolve costs against calling the same `async` builder by hand. Every awaited
// resolve here is outermost (the loop awaits it directly), which is the case that starts a graph.

final class AsyncValue: Sendable {}

/// Builds the value the way a hand-written `async` factory would.
@inline(never)
func makeAsyncValue() async -> AsyncValue { AsyncValue() }

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
final class AsyncDependency: DependencyContainer, @unchecked Sendable {
    func resolveValue() async -> AsyncValue { await fresh { await makeAsyncValue() } }
}

let asyncContainer = AsyncDependency()

let asyncProbes: [Probe] = [
    Probe(
        name: "async.hand-written", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations { blackHole(await makeAsyncValue()) }
            }
        }),
    Probe(
        name: "async.fresh", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations { blackHole(await asyncContainer.resolveValue()) }
            }
        }),
]

// What entering an asynchronous scope costs, as a server's per-request middleware does it,
// against the same `async` call without the scope.

/// The request a middleware would pass on: here, nothing.
@inline(never)
func handleRequest() async -> Int { 1 }

let requestContainer = BenchmarkDependency(usersCacheDirectory: usersCacheDirectory)
/// The same container held as its protocol, as a server's middleware usually holds it.
let requestContainerExistential: any Dependency = BenchmarkDependency(usersCacheDirectory: usersCacheDirectory)

let scopeProbes: [Probe] = [
    Probe(
        name: "request.hand-written", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations { blackHole(await handleRequest()) }
            }
        }),
    Probe(
        name: "request.scoped", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations {
                    blackHole(await withDependencies(requestContainer) { await handleRequest() })
                }
            }
        }),
    Probe(
        name: "request.scoped-existential", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations {
                    blackHole(await withDependencies(requestContainerExistential) { await handleRequest() })
                }
            }
        }),
    Probe(
        name: "request.fresh-container", setUp: {},
        body: { iterations in
            // A container made for each request, as a server that puts request data in its
            // container does: the first scope of every container.
            waitForTask {
                for _ in 0..<iterations {
                    let container: any Dependency = BenchmarkDependency(usersCacheDirectory: usersCacheDirectory)
                    blackHole(await withDependencies(container) { await handleRequest() })
                }
            }
        }),
    Probe(
        name: "request.fresh-container-alone", setUp: {},
        body: { iterations in
            // Only making the container of `request.fresh-container`, for the difference.
            waitForTask {
                for _ in 0..<iterations {
                    let container: any Dependency = BenchmarkDependency(usersCacheDirectory: usersCacheDirectory)
                    blackHole(container)
                    blackHole(await handleRequest())
                }
            }
        }),
]
