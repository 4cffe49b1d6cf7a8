import DependencyKit
import NotesDomain

@testable import NotesOnDependencyKit

/// The DependencyKit port under test: each scope is `withDependencies` with one-line overrides.
enum DependencyKitNotes: NotesProgram {
    // snippet: dk-notes-test-scope
    static func withTestFolder(store: NoteStore, _ body: (any NotesFolder) async throws -> Void) async throws {
        try await withDependencies(
            CoreNotesDependency(),
            .override({ $0.resolveNotesClient() }, with: .storing(in: store)),
            .override({ $0.resolveNow() }, with: NotesTests.fixedDate),
            .override({ $0.resolveUUID() }, with: NotesTests.fixedID)
        ) {
            try await body(FolderModel())
        }
    }

    static func withPreviewFolder(_ body: (any NotesFolder) async throws -> Void) async throws {
        try await withDependencies(PreviewNotesDependency()) {
            try await body(FolderModel())
        }
    }
    // end-snippet
}

extension FolderModel: NotesFolder {
    func open(_ name: String) -> any NotesFolder { open(name) as FolderModel }
}
