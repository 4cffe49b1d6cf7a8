// The container side: a protocol of resolves, an `open` class, an injector and `HasDependencies`.
public import Engine

public protocol Dependency: AnyObject, Sendable {
    func resolveValue() -> Int
}

// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
open class CoreDependency: Dependency, @unchecked Sendable {
    public init() {}
    open func resolveValue() -> Int { 42 }
}

public let injector = Injector<any Dependency>(CoreDependency())

public protocol HasDependencies {}

extension HasDependencies {
    @inlinable public var viaGet: any Dependency { @inline(__always) get { injector.guaranteedGet } }
    @inlinable public var viaAddress: any Dependency {
        @inline(__always) unsafeAddress { UnsafePointer(injector.slot) }
    }
    @inlinable public var viaReadThroughAddress: any Dependency {
        @inline(__always) _read { yield injector.addressed }
    }
    @inlinable public var viaStrongBox: any Dependency {
        @inline(__always) _read { yield injector.yieldedFromStrongBox }
    }
    @inlinable public var viaReadUnowned: any Dependency { @inline(__always) _read { yield injector.yielded } }
}
