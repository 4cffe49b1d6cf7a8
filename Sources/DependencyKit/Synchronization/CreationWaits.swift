#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

/// Who is creating which ``OnceCell``'s value, and which thread waits for which cell, so that
/// threads waiting for each other in a circle stop with a message instead of hanging.
///
/// A cycle through shared instances on one thread is caught by the cell itself. Across threads
/// it can only happen in a race: thread 1 creates A, which needs B, while thread 2 creates B,
/// which needs A. Each would wait for the other forever. Before a thread goes to sleep on a
/// cell, it follows the chain "this cell's creator waits for that cell, whose creator waits
/// for…"; if the chain comes back to itself, the graph is cyclic.
///
/// Only creations and waits touch this table — never a lookup that finds a ready value. Lock
/// order: a cell's mutex may be held while taking this lock, never the reverse.
package enum CreationWaits {
    private struct Creation {
        let thread: UInt
        let description: String
    }

    private struct Graph {
        var creations: [ObjectIdentifier: Creation] = [:]
        var waits: [UInt: ObjectIdentifier] = [:]
    }

    private static let graph = Locked(Graph())

    /// An identifier of the calling thread, unique among live threads.
    package static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Records that `thread` has started creating `cell`'s value.
    package static func began(_ cell: ObjectIdentifier, on thread: UInt, description: String) {
        graph.withLock { $0.creations[cell] = Creation(thread: thread, description: description) }
    }

    /// Records that the creation of `cell`'s value is over; call it while the cell's state
    /// leaves "creating", so that no walk follows a creator that has moved on.
    package static func ended(_ cell: ObjectIdentifier) {
        graph.withLock { _ = $0.creations.removeValue(forKey: cell) }
    }

    /// Records that `thread` is about to wait for `cell`, unless that closes a circle.
    /// - Returns: `nil` when waiting is safe; otherwise the circle, as the descriptions of the
    ///   creations in it, starting and ending with the one `thread` itself is running.
    package static func wait(_ thread: UInt, for cell: ObjectIdentifier) -> [String]? {
        graph.withLock { graph in
            var chain: [String] = []
            var current = cell
            while let creation = graph.creations[current], chain.count <= graph.creations.count {
                chain.append(creation.description)
                if creation.thread == thread {
                    return [creation.description] + chain
                }
                guard let next = graph.waits[creation.thread] else { break }
                current = next
            }
            graph.waits[thread] = cell
            return nil
        }
    }

    /// Records that `thread` no longer waits.
    package static func stopWaiting(_ thread: UInt) {
        graph.withLock { _ = $0.waits.removeValue(forKey: thread) }
    }
}
