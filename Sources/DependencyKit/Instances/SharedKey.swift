/// Identifies one shared instance inside a container: the call site that asks for it and the
/// type it returns.
///
/// Keying on the call site means two different resolves of the same type never collide and no
/// one has to invent a string key. The file is kept by its content, not the address of its
/// literal, so the same resolve inlined into another module still finds the same instance.
@usableFromInline
package struct SharedKey: Sendable, CustomStringConvertible {
    /// How the instance is held; part of the key because each kind has its own cell type.
    @usableFromInline
    package enum Kind: UInt8, Sendable {
        case strong
        case weak
        case async
        /// A `shared(in:) {}` instance; the key's scope tells the scopes apart.
        case scoped
        /// An `async` `shared(in:) {}` instance.
        case scopedAsync
    }

    @usableFromInline
    let fileID: String
    @usableFromInline
    let line: UInt
    @usableFromInline
    let column: UInt
    @usableFromInline
    let type: ObjectIdentifier
    /// The kind in the low byte, and above it the ``Lifetime``'s identity for a scoped
    /// instance or a scope's slot (`0` otherwise): a helper that forwards its caller's call site
    /// may hold instances in several scopes. One word — the kind alone took one, with padding — so
    /// a `shared {}` key is no larger and compares the pair in one instruction.
    @usableFromInline
    let kindAndScope: UInt

    @usableFromInline
    package init(fileID: String, line: UInt, column: UInt, type: Any.Type, kind: Kind, scope: Int = 0) {
        self.fileID = fileID
        self.line = line
        self.column = column
        self.type = ObjectIdentifier(type)
        kindAndScope = UInt(kind.rawValue) | UInt(bitPattern: scope) &<< 8
    }

    /// The ``Lifetime``'s identity, or `0` for a key outside every scope.
    var scope: UInt { kindAndScope &>> 8 }

    @usableFromInline
    package var description: String { "\(fileID):\(line):\(column)" }

    /// Whether two keys are equal, with the cheap comparisons first: keys in one container mostly
    /// differ by line.
    @inlinable
    package func matches(_ other: SharedKey) -> Bool {
        line == other.line && column == other.column && type == other.type
            && kindAndScope == other.kindAndScope && fileID == other.fileID
    }

    /// A cheap, well-mixed hash for the lock-free table's probe sequence (see ``SharedInstances``).
    ///
    /// It takes the file by its length only (call sites in one file differ by line and column anyway;
    /// ``matches(_:)`` compares the whole name), and it skips `Hasher`'s per-process seeding: the lookup runs on every shared resolve, and the keys are call sites
    /// written by the program's authors, not input an attacker chooses.
    @inlinable
    package var probeHash: Int {
        var mixed = UInt(bitPattern: Int(bitPattern: type))
        mixed ^= line &* 0x9E37_79B9
        mixed ^= column &<< 12
        mixed ^= UInt(fileID.utf8.count) &<< 20
        mixed ^= kindAndScope &<< 28
        // A multiply-xorshift finaliser, so that nearby lines land in scattered slots.
        mixed ^= mixed &>> 15
        mixed &*= 0x2C1B_3C6D
        mixed ^= mixed &>> 12
        mixed &*= 0x297A_2D39
        mixed ^= mixed &>> 15
        return Int(bitPattern: mixed)
    }
}
