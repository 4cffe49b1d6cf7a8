import Dependencies
import Foundation
import NotesDomain

// snippet: sd-notes-model
final class FolderModel {
    @Dependency(\.notesClient) var notesClient
    @Dependency(\.date.now) var now
    @Dependency(\.uuid) var uuid
    @Dependency(\.path) var path

    func load() async throws -> [Note] {
        try await notesClient.fetch(path)
    }

    func add(_ title: String) async throws -> Note {
        let note = Note(id: uuid(), title: title, folder: path, created: now)
        try await notesClient.save(note)
        return note
    }

    func open(_ name: String) -> FolderModel {
        withDependencies(from: self) {
            $0.path.append(name)
        } operation: {
            FolderModel()
        }
    }
}
// end-snippet
