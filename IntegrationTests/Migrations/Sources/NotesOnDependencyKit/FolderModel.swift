import DependencyKit
import Foundation
import NotesDomain

// snippet: dk-notes-model
final class FolderModel: HasNotesDependencies {
    @Inject(notesInjector, { $0.resolveNotesClient() }) var notesClient
    let path = notesInjector.dependencies.resolvePath()
    private let scope = DependencyContainer.Context.capture()

    func load() async throws -> [Note] {
        try await notesClient.fetch(path)
    }

    func add(_ title: String) async throws -> Note {
        let note = Note(id: dependencies.resolveUUID(), title: title, folder: path, created: dependencies.resolveNow())
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
