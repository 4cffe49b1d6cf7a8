import Dependencies
import Foundation
import NotesDomain

// The notes feature on swift-dependencies, written as its documentation teaches: a key per
// dependency with live, test and preview values, `DependencyValues` accessors, the library's own
// `date` and `uuid`, and no macros.

// snippet: sd-notes-container
private enum NotesClientKey: DependencyKey {
    static let liveValue = NotesClient.storing(in: NoteStore())
    static let testValue = NotesClient(
        fetch: unimplemented("NotesClient.fetch", placeholder: []),
        save: unimplemented("NotesClient.save")
    )
    static let previewValue = NotesClient(fetch: { _ in Note.samples }, save: { _ in })
}

private enum PathKey: DependencyKey {
    static let liveValue: [String] = []
    static let testValue: [String] = []
}

extension DependencyValues {
    var notesClient: NotesClient {
        get { self[NotesClientKey.self] }
        set { self[NotesClientKey.self] = newValue }
    }

    var path: [String] {
        get { self[PathKey.self] }
        set { self[PathKey.self] = newValue }
    }
}
// end-snippet
