// The engine side of the read-accessor experiment (see Benchmarks/Scripts/benchmarks-read-accessors.sh): one
// installed container behind an atomic word, as an `Injector` holds it, read four ways.

/// Holds one installed container; never freed in this experiment.
///
/// `@unchecked Sendable`: sound because its one `let` is written in `init` and only read after;
/// the experiment installs only `Sendable` containers.
public final class Box<Container>: @unchecked Sendable {
    public let container: Container
    public init(_ container: Container) { self.container = container }
}

/// An injector reduced to what the read needs.
///
/// `@unchecked Sendable`: sound because `word` and `slot` are written once in `init`, before the
/// injector is shared, and only read after (the word through atomic loads).
public final class Injector<Container>: @unchecked Sendable {
    @usableFromInline let word: UnsafeMutablePointer<Int>
    public let slot: UnsafeMutablePointer<Container>

    public init(_ container: Container) {
        word = .allocate(capacity: 1)
        word.initialize(to: Int(bitPattern: Unmanaged.passRetained(Box(container)).toOpaque()))
        slot = .allocate(capacity: 1)
        slot.initialize(to: container)
    }

    @inlinable var box: Unmanaged<Box<Container>> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word.pointee).unsafelyUnwrapped)
    }

    /// What DependencyKit ships: a getter that borrows the box.
    @inlinable public var guaranteedGet: Container {
        @inline(__always) get { box._withUnsafeGuaranteedRef { $0.container } }
    }

    /// An addressor into never-freed memory holding the container.
    @inlinable public var addressed: Container {
        @inline(__always) unsafeAddress { UnsafePointer(slot) }
    }

    /// A coroutine that yields the container of a box read as `unowned(unsafe)`.
    @inlinable public var yielded: Container {
        @inline(__always) _read {
            unowned(unsafe) let box = box.takeUnretainedValue()
            yield box.container
        }
    }

    /// A coroutine that holds a strong reference to the box and yields its `let container`
    /// borrowed: what a per-thread box (one retained by each thread, so that its count never
    /// moves between cores) would compile to.
    @inlinable public var yieldedFromStrongBox: Container {
        @inline(__always) _read {
            let box = box.takeUnretainedValue()
            yield box.container
            _fixLifetime(box)
        }
    }

    /// A closure that receives the borrowed container: another spelling, for contrast.
    @inlinable @inline(__always)
    public func withContainer<R>(_ body: (Container) -> R) -> R {
        box._withUnsafeGuaranteedRef { body($0.container) }
    }
}
