/// One binding of a container to a storage in the current task's scope chain.
///
/// Frames form a linked list held in a single task-local, innermost first. A frame counts
/// itself in its storage's live-scope counter for as long as it exists — incremented in
/// `init`, decremented in `deinit` — because an unstructured `Task {}` started inside a scope
/// inherits the task-local and can outlive the `withValue` call; counting "+1 before, −1 after
/// the call" would let the hot path skip a lookup that such a task still needs.
package final class ScopeFrame: Sendable {
    /// The chain of frames visible to the current task.
    @TaskLocal package static var current: ScopeFrame?

    /// The live-scope counter of the storage this frame binds, which also identifies it.
    let storage: AtomicWord
    /// A `ContainerStorage<C>.Box`, typed by `storage`.
    let box: any AnyObject & Sendable
    /// The next outer frame.
    let parent: ScopeFrame?

    init(storage: AtomicWord, box: any AnyObject & Sendable, parent: ScopeFrame?) {
        self.storage = storage
        self.box = box
        self.parent = parent
        storage.add(1)
    }

    deinit {
        storage.add(-1)
    }
}
