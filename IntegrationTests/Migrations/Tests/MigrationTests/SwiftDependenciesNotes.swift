import Dependencies
import NotesDomain

@testable import NotesOnSwiftDependencies

/// The swift-dependencies program under test: each scope is `withDependencies { $0.… = … }`.
enum SwiftDependenciesNotes: NotesProgram {
    // snippet: sd-notes-test-scope
    static func withTestFolder(store: NoteStore, _ body: (any NotesFolder) async throws -> Void) async throws {
        try await withDependencies {
            $0.notesClient = .storing(in: store)
            $0.date.now = NotesTests.fixedDate
            $0.uuid = .constant(NotesTests.fixedID)
        } operation: {
            try await body(FolderModel())
        }
    }

    static func withPreviewFolder(_ body: (any NotesFolder) async throws -> Void) async throws {
        try await withDependencies {
            $0.context = .preview
        } operation: {
            try await body(FolderModel())
        }
    }
    // end-snippet
}

extension FolderModel: NotesFolder {
    func open(_ name: String) -> any NotesFolder { open(name) as FolderModel }
}
