import Dependencies
import DependencyKit
import DependencyKitTesting
import NotesDomain
import Testing

@testable import NotesOnDependencyKit
@testable import NotesOnSwiftDependencies

/// A test that forgets to replace the notes client is told, in both versions: by the key's
/// unimplemented test value in swift-dependencies, and by the test guard in DependencyKit, where the
/// port declares no test value at all.
@Suite struct ForgottenOverrideTests {
    @Test func swiftDependenciesReportsTheUnimplementedTestValue() async throws {
        try await withKnownIssue {
            try await Dependencies.withDependencies {
                $0.path = []
            } operation: {
                _ = try await NotesOnSwiftDependencies.FolderModel().load()
            }
        } matching: { issue in
            String(describing: issue).contains("NotesClient.fetch")
        }
    }

    @Test(.dependencies(CoreNotesDependency()))
    func dependencyKitReportsTheLiveLeaf() async throws {
        try await withKnownIssue {
            _ = try await NotesOnDependencyKit.FolderModel().load()
        } matching: { issue in
            String(describing: issue).contains("resolveNotesClient()")
        }
    }
}
