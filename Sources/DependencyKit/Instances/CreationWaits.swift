internal import _DependencyKitShims

/// Who is creating which ``OnceCell``'s value, and which thread waits for which cell, so that
/// threads waiting for each other in a circle stop with a message instead of hanging, while a
/// thread that waits for a creation that is only slow waits.
///
/// A cycle through shared instances on one thread is caught by the cell itself. Across threads
/// it can only happen in a race: thread 1 creates A, which needs B, while thread 2 creates B,
/// which needs A. Each would wait for the other forever. Before a thread goes to sleep on a
/// cell, it follows the chain "this cell's creator waits for that cell, whose creator waits
/// for…"; if the chain comes back to itself, the graph is cyclic.
///
/// Only waits touch this table — never a lookup that finds a ready value, and never a creation
/// nobody waits for: the first thread to wait for a cell records who creates it (read from the
/// cell's state under the cell's lock) and how to name it, so an uncontended creation costs no
/// global lock and builds no string. Every creation in a circle has a waiter, so every one is
/// recorded and named. Lock order: a cell's mutex may be held while taking this lock, never the
/// reverse.
package enum CreationWaits {
    private struct Graph {
        /// Who creates each cell's value, and how to name it.
        var creations: [ObjectIdentifier: (thread: UInt, description: String)] = [:]
        var waits: [UInt: ObjectIdentifier] = [:]
    }

    private static let graph = Locked(Graph())

    /// Records that the creation of `cell`'s value is over; call it, if anyone waited for the
    /// creation, while the cell's state leaves "creating", so that no walk follows a creator that
    /// has moved on.
    package static func ended(_ cell: ObjectIdentifier) {
        graph.withLock { _ = $0.creations.removeValue(forKey: cell) }
    }

    /// Records that `thread` is about to wait for `cell`, which `creator` is creating, unless that
    /// closes a circle. Call it while holding the cell's lock.
    /// - Parameters:
    ///   - thread: The waiting thread.
    ///   - cell: The cell it waits for.
    ///   - creator: The thread creating the cell's value.
    ///   - describe: Names the cell's value; called only by the first waiter of a creation.
    /// - Returns: `nil` when waiting is safe; otherwise the circle, as the descriptions of the
    ///   creations in it, starting and ending with the one `thread` itself is running.
    package static func wait(
        _ thread: UInt,
        for cell: ObjectIdentifier,
        createdBy creator: UInt,
        describedBy describe: () -> String
    ) -> [String]? {
        graph.withLock { graph in
            if graph.creations[cell] == nil {
                graph.creations[cell] = (creator, describe())
            }
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

    package static func stopWaiting(_ thread: UInt) {
        graph.withLock { _ = $0.waits.removeValue(forKey: thread) }
    }

    // MARK: - Circles the table cannot see

    private static let waitLimit = AtomicWord(30_000)

    /// How long a thread or task waits for one creation of a shared value before it reports the
    /// wait; 30 seconds. It goes on waiting: a creation that is only slow (a slow server behind an
    /// `async` shared client) is waited for, however long it takes.
    ///
    /// A creation may wait for something the table does not track: work handed synchronously to
    /// another thread (`DispatchQueue.main.sync`), or a `Task.detached` it awaits. If that work
    /// asks for the value being created, both sides wait forever, and nothing can tell that from
    /// a slow creation. The report turns a silent hang into a message that names the value and the
    /// likely fix. Tests lower it; it is not public API.
    package static var waitLimitMilliseconds: Int {
        get { waitLimit.loadRelaxed() }
        set { waitLimit.storeRelease(newValue) }
    }

    private static let reporter = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Receives the report of a long wait instead of standard error; `nil` restores standard
    /// error. For tests; not public API.
    package static var longWaitReporter: (@Sendable (String) -> Void)? {
        get { reporter.withLock { $0 } }
        set { reporter.withLock { $0 = newValue } }
    }

    /// Reports a wait that has lasted past ``waitLimitMilliseconds``: to the test's reporter, or
    /// to standard error. Never call it with a lock held.
    package static func reportLongWait(_ message: String) {
        if let report = longWaitReporter {
            report(message)
        } else {
            dk_write_standard_error("DependencyKit: " + message + "\n")
        }
    }

    /// Milliseconds on a clock that never jumps, for measuring how long a wait has lasted.
    static func monotonicMilliseconds() -> Int { Int(dk_monotonic_nanoseconds() / 1_000_000) }

    /// The report of a thread that has waited long for `description`.
    package static func longWaitMessage(_ description: String, waitedMilliseconds: Int) -> String {
        "This thread has waited \(seconds(waitedMilliseconds)) for \(description), which another thread is "
            + "still creating, and goes on waiting. If the creation is merely slow, nothing is wrong; create the "
            + "instance before other threads need it to avoid the wait. If it never ends, the creation is waiting "
            + "for this thread: it hands work synchronously to another thread or queue (DispatchQueue.main.sync, "
            + "a semaphore, a lock) and that work asks for the same instance. Resolve what that work needs before "
            + "handing it off and pass it in, or hand the work off asynchronously."
    }

    /// The report of a task that has waited long for `description`.
    package static func asyncLongWaitMessage(_ description: String, waitedMilliseconds: Int) -> String {
        "A task has waited \(seconds(waitedMilliseconds)) for \(description), which another task is still "
            + "creating, and goes on waiting (cancelling the task ends the wait when the creation throws "
            + "`any Error`). If the creation is merely slow, nothing is wrong. If it never ends, the creation "
            + "awaits this task: it awaits unstructured work (Task.detached, a continuation resumed elsewhere) "
            + "that asks for the same instance, and such work does not inherit the creation's context, so it "
            + "cannot be recognised as a cycle. Resolve what that work needs before starting it and pass it in, "
            + "or use a child task (async let, a task group), whose request for the instance stops at once as "
            + "a cycle."
    }

    private static func seconds(_ milliseconds: Int) -> String {
        "\(milliseconds / 1_000).\(String(milliseconds % 1_000 / 100)) s"
    }
}
