/// What a weakly shared instance's cell stores: the instance, without keeping it alive.
///
/// Only ever holds an instance whose type is `Sendable` (see
/// ``DependencyContainer/weakShared(_:fileID:line:column:_:)``), and is only read under the
/// cell's lock.
@usableFromInline
struct WeakReference {
    @usableFromInline
    weak var object: AnyObject?

    @usableFromInline
    init(object: AnyObject?) { self.object = object }
}
