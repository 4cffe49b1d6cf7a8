import Foundation
import NotesDomain
import Testing

/// A folder of notes as the suite drives it, in either version of the program.
protocol NotesFolder {
    var path: [String] { get }
    func load() async throws -> [Note]
    func add(_ title: String) async throws -> Note
    func open(_ name: String) -> any NotesFolder
}

/// The notes feature as the suite drives it: `SwiftDependenciesNotes` and `DependencyKitNotes`
/// implement it for the two versions of the program.
protocol NotesProgram {
    /// Runs `body` with a root folder made in a test scope: the date and the ID fixed, notes saved in
    /// `store`.
    static func withTestFolder(store: NoteStore, _ body: (any NotesFolder) async throws -> Void) async throws
    /// Runs `body` with a root folder made for a preview.
    static func withPreviewFolder(_ body: (any NotesFolder) async throws -> Void) async throws
}

enum NotesVersion: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case swiftDependencies, dependencyKit

    var program: any NotesProgram.Type {
        switch self {
        case .swiftDependencies: SwiftDependenciesNotes.self
        case .dependencyKit: DependencyKitNotes.self
        }
    }

    var testDescription: String { rawValue }
}

/// One suite, run against the swift-dependencies program and its DependencyKit port.
@Suite struct NotesTests {
    static let fixedDate = Date(timeIntervalSince1970: 1_000_000)
    static let fixedID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    @Test(arguments: NotesVersion.allCases)
    func addsANoteWithTheDateAndIDInEffect(version: NotesVersion) async throws {
        let store = NoteStore()
        try await version.program.withTestFolder(store: store) { root in
            let note = try await root.add("Buy tea")
            #expect(note == Note(id: Self.fixedID, title: "Buy tea", folder: [], created: Self.fixedDate))
            #expect(try await root.load() == [note])
        }
        #expect(await store.notes(in: []).map(\.title) == ["Buy tea"])
    }

    @Test(arguments: NotesVersion.allCases)
    func aFolderAppendsItsNameToThePathItWasOpenedIn(version: NotesVersion) async throws {
        let store = NoteStore()
        try await version.program.withTestFolder(store: store) { root in
            let inner = root.open("work").open("2026")
            #expect(inner.path == ["work", "2026"])
            #expect(root.path == [])
            let note = try await inner.add("Plan")
            #expect(note.folder == ["work", "2026"])
            #expect(try await root.load().isEmpty)
            #expect(try await inner.load() == [note])
        }
    }

    /// `@Dependency` keeps the values in effect when the model is made; the port keeps them too, so a
    /// folder used after the scope that made it ended still saves to the test's store, with its date and ID.
    @Test(arguments: NotesVersion.allCases)
    func aFolderKeepsTheValuesOfTheScopeItWasMadeIn(version: NotesVersion) async throws {
        let store = NoteStore()
        var kept: (any NotesFolder)?
        try await version.program.withTestFolder(store: store) { kept = $0 }
        let root = try #require(kept)
        let note = try await root.add("After the scope")
        #expect(note == Note(id: Self.fixedID, title: "After the scope", folder: [], created: Self.fixedDate))
        #expect(try await root.load() == [note])
        #expect(try await root.open("work").load().isEmpty)
        #expect(await store.notes(in: []).map(\.title) == ["After the scope"])
    }

    @Test(arguments: NotesVersion.allCases)
    func aPreviewShowsTheSampleNotes(version: NotesVersion) async throws {
        try await version.program.withPreviewFolder { root async throws in
            #expect(try await root.load() == Note.samples)
            #expect(try await root.open("anywhere").load() == Note.samples)
        }
    }
}
