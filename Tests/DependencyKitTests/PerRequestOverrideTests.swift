import Foundation
import Testing

@testable import DependencyKit

// Issue 48, written the way a server developer writes a notes API: a middleware that puts the request's
// ID and user in effect in one line, a controller → service → recorder chain that reads them two and
// three levels below the handler, and the app's store. Hundreds of requests run at once in a task group.

protocol NotesDependency: DependencyContainer {
    func resolveRequestID() -> String
    func resolveUser() -> String
    /// The app's store, declared as the app's: `appShared {}`.
    func resolveNoteStore() -> NoteStore
    /// The same store declared with `shared {}` only: each override scope owns its own (the rule).
    func resolveScopedNoteStore() -> NoteStore
    /// The app's audit log, created asynchronously.
    func resolveAuditLog() async -> NoteStore
    /// An app instance whose builder reads a per-request value: built with every override masked.
    func resolveStartupStamp() -> RequestStamp
    /// The same, created asynchronously.
    func resolveAsyncStartupStamp() async -> RequestStamp
    func resolveNotesController() -> NotesController
    func resolveNotesService() -> NotesService
    func resolveRecorder() -> NoteRecorder
}

struct Note: Sendable, Equatable {
    let requestID: String
    let user: String
    let text: String
}

final class NoteStore: Sendable {
    private let notes = Locked<[Note]>([])
    var all: [Note] { notes.withLock { $0 } }
    func add(_ note: Note) { notes.withLock { $0.append(note) } }
}

final class RequestStamp: Sendable {
    let requestID: String
    init(requestID: String) { self.requestID = requestID }
}

/// Depth 3: reads the request's values where it needs them.
struct NoteRecorder: Sendable {
    let requestID: String
    let user: String
    let store: NoteStore
    func record(_ text: String) -> Note {
        let note = Note(requestID: requestID, user: user, text: text)
        store.add(note)
        return note
    }
}

/// Depth 2.
struct NotesService: Sendable {
    let recorder: NoteRecorder
    let requestID: String
}

/// Depth 1: what the handler resolves.
struct NotesController: Sendable {
    let service: NotesService
    func post(_ text: String) -> (note: Note, seenByService: String) {
        (service.recorder.record(text), service.requestID)
    }
}

class CoreNotes: DependencyContainer, NotesDependency, @unchecked Sendable {
    let storeBuilds = AtomicWord(0)

    func resolveRequestID() -> String { fresh { "no request" } }
    func resolveUser() -> String { fresh { "anonymous" } }
    func resolveNoteStore() -> NoteStore {
        appShared {
            _ = storeBuilds.add(1)
            return NoteStore()
        }
    }
    func resolveScopedNoteStore() -> NoteStore { shared { NoteStore() } }
    func resolveAuditLog() async -> NoteStore {
        await appShared { () async -> NoteStore in
            await Task.yield()
            return NoteStore()
        }
    }
    func resolveStartupStamp() -> RequestStamp { appShared { RequestStamp(requestID: resolveRequestID()) } }
    func resolveAsyncStartupStamp() async -> RequestStamp {
        await appShared { () async -> RequestStamp in
            await Task.yield()
            return RequestStamp(requestID: resolveRequestID())
        }
    }
    func resolveNotesController() -> NotesController { fresh { NotesController(service: resolveNotesService()) } }
    func resolveNotesService() -> NotesService {
        fresh { NotesService(recorder: resolveRecorder(), requestID: resolveRequestID()) }
    }
    func resolveRecorder() -> NoteRecorder {
        fresh { NoteRecorder(requestID: resolveRequestID(), user: resolveUser(), store: resolveNoteStore()) }
    }
}

/// A container of its own type, so that the rebuild warnings about it are told from other tests'.
final class LeakyNotes: CoreNotes, @unchecked Sendable {}
final class FreshPerTestNotes: CoreNotes, @unchecked Sendable {}

let notesInjector = Injector<any NotesDependency> { CoreNotes() }

/// The middleware: the request's values in effect for everything the handler does, in one line.
func withRequestValues<R: Sendable>(
    id: String, user: String, _ handler: () async throws -> R
) async rethrows -> R {
    try await notesInjector.withOverrides(
        .override({ $0.resolveRequestID() }, with: id), .override({ $0.resolveUser() }, with: user)
    ) {
        try await handler()
    }
}

/// The handler of `POST /notes`.
func postNote(_ text: String) async -> (note: Note, seenByService: String) {
    // An async hop, as a real handler awaits its body.
    await Task.yield()
    return notesInjector.dependencies.resolveNotesController().post(text)
}

@Suite struct PerRequestOverrideTests {
    @Test func perRequestOverridesKeepEveryNoteInTheAppsStoreSequentiallyAndConcurrently() async {
        let app = CoreNotes()
        await withDependencies(app) {
            for index in 0..<100 {
                let result = await withRequestValues(id: "seq-\(index)", user: "user-\(index % 7)") {
                    await postNote("note \(index)")
                }
                #expect(
                    result.note == Note(requestID: "seq-\(index)", user: "user-\(index % 7)", text: "note \(index)"))
                #expect(result.seenByService == "seq-\(index)")
            }
            let crossed = await withTaskGroup(of: Int.self) { group in
                for index in 0..<300 {
                    group.addTask {
                        await withRequestValues(id: "par-\(index)", user: "user-\(index % 11)") {
                            let result = await postNote("parallel \(index)")
                            let expected = Note(
                                requestID: "par-\(index)", user: "user-\(index % 11)", text: "parallel \(index)")
                            return result.note == expected && result.seenByService == "par-\(index)" ? 0 : 1
                        }
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(crossed == 0)
        }
        // Every note is in the app's one store, read outside every request.
        let notes = app.resolveNoteStore().all
        #expect(notes.count == 400)
        #expect(Set(notes.map(\.requestID)).count == 400)
        #expect(notes.allSatisfy { $0.text.hasSuffix(String($0.requestID.split(separator: "-")[1])) })
        #expect(app.storeBuilds.loadRelaxed() == 1)
    }

    @Test func anAsyncAppSharedInstanceIsTheAppsInEveryRequest() async {
        let app = CoreNotes()
        let logs = await withDependencies(app) {
            await withTaskGroup(of: ObjectIdentifier.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        await withRequestValues(id: "r\(index)", user: "u") {
                            let log = await notesInjector.dependencies.resolveAuditLog()
                            log.add(Note(requestID: notesInjector.dependencies.resolveRequestID(), user: "u", text: ""))
                            return ObjectIdentifier(log)
                        }
                    }
                }
                return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
        }
        let log = await app.resolveAuditLog()
        #expect(logs == [ObjectIdentifier(log)])
        #expect(log.all.count == 200)
        #expect(Set(log.all.map(\.requestID)).count == 200)
    }

    @Test func anAppSharedInstanceIsBuiltWithEveryOverrideMasked() async {
        let app = CoreNotes()
        let stamp = await withDependencies(app) {
            await withRequestValues(id: "first request", user: "ada") {
                notesInjector.dependencies.resolveStartupStamp()
            }
        }
        // Built inside the first request, it did not capture that request's ID.
        #expect(stamp.requestID == "no request")
        #expect(app.resolveStartupStamp() === stamp)
        let asyncStamp = await withDependencies(app) {
            await withRequestValues(id: "first request", user: "ada") {
                await notesInjector.dependencies.resolveAsyncStartupStamp()
            }
        }
        #expect(asyncStamp.requestID == "no request")
        #expect(await app.resolveAsyncStartupStamp() === asyncStamp)
    }

    @Test func anOverrideOfTheAppSharedResolveItselfStillWins() async {
        let app = CoreNotes()
        let own = NoteStore()
        await withDependencies(app) {
            await notesInjector.withOverrides(.override({ $0.resolveNoteStore() }, with: own)) {
                _ = await withRequestValues(id: "t", user: "test") { await postNote("into the test's store") }
            }
        }
        #expect(own.all.map(\.text) == ["into the test's store"])
        #expect(app.resolveNoteStore().all.isEmpty)
    }

    @Test func aTestContainerStartsWithItsOwnAppSharedInstances() {
        let first = CoreNotes()
        let second = CoreNotes()
        #expect(first.resolveNoteStore() !== second.resolveNoteStore())
        #expect(first.resolveNoteStore() === first.resolveNoteStore())
    }

    // Row 2: the undeclared `shared {}` store, rebuilt per request, loses what each request stored (the
    // documented rule), and the library says so once, naming the instance and the fix.

    @Test func aSharedStoreRebuiltPerRequestScopeLosesItsNotesAndIsReportedOnce() async throws {
        let app = LeakyNotes()
        await withDependencies(app) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<(3 * ScopeRebuilds.threshold) {
                    group.addTask {
                        await withRequestValues(id: "r\(index)", user: "u") {
                            notesInjector.dependencies.resolveScopedNoteStore()
                                .add(Note(requestID: "r\(index)", user: "u", text: "lost"))
                        }
                    }
                }
            }
        }
        // The documented behaviour: every request scope had a store of its own; the app's has nothing.
        #expect(app.resolveScopedNoteStore().all.isEmpty)
        let warnings = ScopeRebuilds.written.withLock { $0 }.filter { $0.contains("LeakyNotes") }
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.contains("the shared NoteStore of resolveScopedNoteStore()"))
        #expect(warning.contains("appShared { … }"))
        #expect(warning.contains(".override({ $0.resolveScopedNoteStore() }, with: instance)"))
    }

    @Test func testsThatGiveEachScopeAContainerOfItsOwnAreNotReported() {
        for index in 0..<(3 * ScopeRebuilds.threshold) {
            let container = FreshPerTestNotes()
            withDependencies(container, .override({ $0.resolveRequestID() }, with: "test \(index)")) {
                _ = notesInjector.dependencies.resolveScopedNoteStore()
            }
        }
        #expect(!ScopeRebuilds.written.withLock { $0 }.contains { $0.contains("FreshPerTestNotes") })
    }
}
