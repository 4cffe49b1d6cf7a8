public import Foundation

// The notes feature's domain: plain Swift, with no dependency injection in it. Both versions of the
// program, swift-dependencies' and DependencyKit's, use these same types.

public struct Note: Sendable, Equatable {
    public let id: UUID
    public let title: String
    public let folder: [String]
    public let created: Date

    public init(id: UUID, title: String, folder: [String], created: Date) {
        self.id = id
        self.title = title
        self.folder = folder
        self.created = created
    }

    /// What a preview shows.
    public static let samples = [
        Note(id: UUID(), title: "Buy tea", folder: [], created: Date(timeIntervalSince1970: 0)),
        Note(id: UUID(), title: "Call Ada", folder: [], created: Date(timeIntervalSince1970: 60)),
    ]
}

/// Reads and writes notes: a struct of closures, so a test or a preview replaces it with a value.
public struct NotesClient: Sendable {
    public var fetch: @Sendable (_ folder: [String]) async throws -> [Note]
    public var save: @Sendable (Note) async throws -> Void

    public init(
        fetch: @escaping @Sendable (_ folder: [String]) async throws -> [Note],
        save: @escaping @Sendable (Note) async throws -> Void
    ) {
        self.fetch = fetch
        self.save = save
    }

    /// A client over a store: production keeps one for the process, a test one for itself.
    public static func storing(in store: NoteStore) -> NotesClient {
        NotesClient(fetch: { await store.notes(in: $0) }, save: { await store.insert($0) })
    }
}

/// The notes a client saved, per folder path.
public actor NoteStore {
    private var notes: [Note] = []

    public init() {}

    public func insert(_ note: Note) { notes.append(note) }
    public func notes(in folder: [String]) -> [Note] { notes.filter { $0.folder == folder } }
}
