import DependencyKit
import Foundation
import NotesDomain

// The notes feature on DependencyKit: the swift-dependencies version (NotesOnSwiftDependencies)
// moved over one key at a time. Each key is a resolve method; its live value is the body, its
// preview value a container for previews, and its test value the test's override.

// snippet: dk-notes-container
class CoreNotesDependency: DependencyContainer, @unchecked Sendable {
    func resolveNotesClient() -> NotesClient { live { shared { NotesClient.storing(in: NoteStore()) } } }
    func resolveNow() -> Date { live { Date() } }
    func resolveUUID() -> UUID { live { UUID() } }
    func resolvePath() -> [String] { fresh { [] } }
}

final class PreviewNotesDependency: CoreNotesDependency, @unchecked Sendable {
    override func resolveNotesClient() -> NotesClient {
        fresh { NotesClient(fetch: { _ in Note.samples }, save: { _ in }) }
    }
}

let notesInjector = Injector<CoreNotesDependency> { CoreNotesDependency() }

protocol HasNotesDependencies {}

extension HasNotesDependencies {
    var dependencies: CoreNotesDependency { notesInjector.dependencies }
}

// end-snippet
