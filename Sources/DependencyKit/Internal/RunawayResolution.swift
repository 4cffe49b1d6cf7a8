internal import DependencyKitAtomics

/// Names a cycle in every build, even with cycle checking off, before it overflows the stack.
///
/// Every synchronous resolution counts itself in a per-thread depth (two thread-local
/// increments). No real graph nests ``depthLimit`` resolutions on one thread, so past it the
/// engine records each further resolution on this thread; the first one that repeats a recorded
/// one closes the cycle, and the process stops with the chain between the two repeats, named.
/// A resolve that builds its value without `fresh {}` is not recorded, so the chain can miss it;
/// the message says so.
@usableFromInline
enum RunawayResolution {
    /// Nesting deeper than this on one thread is taken for a runaway resolution.
    @usableFromInline
    static let depthLimit = 512

    /// How many resolutions past the limit are recorded before giving up on finding a repeat.
    static let recordLimit = 512

    /// The resolutions recorded on one thread past the depth limit, innermost last.
    final class Record {
        struct Entry {
            let depth: Int
            let name: String
            let typeID: ObjectIdentifier
            let containerID: ObjectIdentifier?
            let step: ResolutionStep
        }

        var entries: [Entry] = []
    }

    /// Records one resolution past the depth limit; stops the process when it repeats one.
    @usableFromInline
    static func record(
        _ name: String,
        of type: any Any.Type,
        lifetime: ResolutionLifetime,
        container: AnyObject?,
        implementer: (any AnyObject.Type)?
    ) {
        let record: Record
        if let raw = dk_runaway_record_get() {
            record = Unmanaged<Record>.fromOpaque(raw).takeUnretainedValue()
        } else {
            record = Record()
            dk_runaway_record_set(Unmanaged.passRetained(record).toOpaque())
        }
        let depth = dk_resolution_depth_get()
        // Entries at this depth or deeper belong to resolutions that have returned.
        while let last = record.entries.last, last.depth >= depth {
            record.entries.removeLast()
        }
        let typeID = ObjectIdentifier(type)
        let containerID = container.map(ObjectIdentifier.init)
        let step = ResolutionStep(
            name: name,
            requestedType: String(describing: type),
            lifetime: lifetime,
            container: container.map { String(describing: Swift.type(of: $0)) },
            implementer: implementer.map { String(describing: $0) }
        )
        if let start = record.entries.lastIndex(where: {
            $0.name == name && $0.typeID == typeID && $0.containerID == containerID
        }) {
            let cycle = DependencyCycleError(chain: record.entries[start...].map(\.step) + [step])
            fatalError(cycle.trapMessage + runawayNote)
        }
        record.entries.append(
            Record.Entry(depth: depth, name: name, typeID: typeID, containerID: containerID, step: step)
        )
        if record.entries.count > recordLimit {
            let recent = record.entries.suffix(8).map { "  \($0.step)" }.joined(separator: "\n")
            fatalError(
                """
                Resolutions nested more than \(depthLimit + recordLimit) deep on one thread without \
                repeating; the most recent:
                \(recent)
                A resolve probably requires itself through resolves that build without `fresh {}`. \
                Wrap each resolve's body in `fresh {}` (or `shared {}`) so the cycle can be named.
                """
            )
        }
    }

    private static let runawayNote = """

        Found because resolutions nested more than \(depthLimit) deep on one thread. A resolve in \
        the cycle that builds its value without `fresh {}`, `live {}` or `shared {}` is not listed: \
        wrap every resolve's body so it is.
        """
}
