import DependencyKit

// What a request's own values cost a server: the same request — a handler that resolves a service two
// levels above a recorder that reads the request's ID and writes to the app's store — served in the app
// container's scope, without a per-request value (`request.values-none`) and with the request's ID put in
// effect by a per-request override, as a middleware does it (`request.values-override`), or with the
// app's container and the request's ID put in effect by one call (`request.values-scope`). The store is
// the app's (`appShared {}`), so no request builds it again.

/// The app's store: one per container, whatever the request.
final class RequestValuesStore: Sendable {}

struct RequestValuesRecorder: Sendable {
    let requestID: String
    let store: RequestValuesStore
}

struct RequestValuesService: Sendable {
    let recorder: RequestValuesRecorder
}

// `@unchecked Sendable`: sound because this class stores nothing of its own.
final class RequestValuesApp: DependencyContainer, @unchecked Sendable {
    func resolveRequestID() -> String { fresh { "no request" } }
    func resolveStore() -> RequestValuesStore { appShared { RequestValuesStore() } }
    func resolveRecorder() -> RequestValuesRecorder {
        fresh { RequestValuesRecorder(requestID: resolveRequestID(), store: resolveStore()) }
    }
    func resolveService() -> RequestValuesService { fresh { RequestValuesService(recorder: resolveRecorder()) } }
}

let requestValuesApp = RequestValuesApp()
let requestValuesInjector = Injector<RequestValuesApp> { requestValuesApp }

/// The handler: resolves its service from the container in effect.
@inline(never)
func handleValuesRequest() async -> RequestValuesService {
    requestValuesInjector.dependencies.resolveService()
}

let requestValueProbes: [Probe] = [
    Probe(
        name: "request.values-none", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations {
                    blackHole(await withDependencies(requestValuesApp) { await handleValuesRequest() })
                }
            }
        }),
    Probe(
        name: "request.values-override", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations {
                    let service = await withDependencies(requestValuesApp) {
                        await requestValuesInjector.withOverrides(
                            .override({ $0.resolveRequestID() }, with: "request 42")
                        ) {
                            await handleValuesRequest()
                        }
                    }
                    if service.recorder.requestID != "request 42" { fatalError("request.values-override crossed") }
                    blackHole(service)
                }
            }
        }),
    // The same request with the app's container and the request's value put in effect by one call, as one
    // middleware would: `withDependencies(app, .override(…))`.
    Probe(
        name: "request.values-scope", setUp: {},
        body: { iterations in
            waitForTask {
                for _ in 0..<iterations {
                    let service = await withDependencies(
                        requestValuesApp, .override({ $0.resolveRequestID() }, with: "request 42")
                    ) {
                        await handleValuesRequest()
                    }
                    if service.recorder.requestID != "request 42" { fatalError("request.values-scope crossed") }
                    blackHole(service)
                }
            }
        }),
]
