/// Identifies one shared instance inside a container: the call site that asks for it and the
/// type it returns.
///
/// Keying on the call site means two different resolves of the same type never collide and no
/// one has to invent a string key. The file is kept by its content, not the address of its
/// literal, so the same resolve inlined into another module still finds the same instance.
package struct SharedKey: Hashable, Sendable, CustomStringConvertible {
    /// How the instance is held; part of the key because each kind has its own cell type.
    package enum Kind: UInt8, Sendable {
        case strong
        case weak
        case async
    }

    let fileID: String
    let line: UInt
    let column: UInt
    let type: ObjectIdentifier
    let kind: Kind

    package init(fileID: String, line: UInt, column: UInt, type: Any.Type, kind: Kind) {
        self.fileID = fileID
        self.line = line
        self.column = column
        self.type = ObjectIdentifier(type)
        self.kind = kind
    }

    package var description: String { "\(fileID):\(line):\(column)" }
}
