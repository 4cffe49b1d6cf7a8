// expected-error: cannot find 'dk_atomic_load_relaxed' in scope
// DependencyKit's C shims (`_DependencyKitShims`) are an implementation detail: its @inlinable hot
// path calls them, but `import DependencyKit` does not re-export them, so a client cannot call one.
import DependencyKit

func readWord() -> Int {
    var word = 0
    return dk_atomic_load_relaxed(&word)
}
