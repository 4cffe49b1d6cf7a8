import DependencyKit
import Foundation
import NotesDomain

// snippet: dk-notes-model
final class FolderModel: HasNotesDependencies {
    let notesClient = notesInjector.dependencies.resolveNotesClient()
    let path = notesInjector.dependencies.resolvePath()
    private let scope = DependencyContainer.Context.capture()

    func load() async throws -> [Note] {
        try await notesClient.fetch(path)
    }

    func add(_ title: String) async throws -> Note {
        let (id, now) = scope.run { (dependencies.resolveUUID(), dependencies.resolveNow()) }
        let note = Note(id: id, title: title, folder: path, created: now)
        try await notesClient.save(note)
        return note
    }

    func open(_ name: String) -> FolderModel {
        scope.run {
            notesInjector.withOverrides(.override({ $0.resolvePath() }) { $0 + [name] }) {
                FolderModel()
            }
        }
    }
}
// end-snippet
