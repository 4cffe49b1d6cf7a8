internal import DependencyKit
internal import Foundation

/// The test guard's live-leaf messages: what was served, by whose code, and the code to paste, with
/// every type written as the user writes it.
extension TestGuard {
    /// Whether the guard reports `resolution` as a live leaf served by production code: a `live {}`
    /// resolve that the test did not exempt. The one place that decides it, so that a way of
    /// replacing a leaf inside a test can answer here that the leaf is no longer production code.
    static func isLiveLeafServedByProductionCode(_ resolution: Resolution, in context: GuardedTest) -> Bool {
        resolution.lifetime.reachesOutside
            && !exemptions.union(context.exemptions).contains(.liveDependencies)
    }

    /// The live-leaf issue: what was served, by whose code, which container was in effect (and which
    /// one the test installed), and the code to paste.
    static func liveLeafMessage(_ resolution: Resolution, in context: GuardedTest) -> String {
        let (name, type) = (resolution.name, typeName(resolution.requestedType))
        // Both messages open with what was resolved and why it matters.
        let reachesOutside = "\(name) -> \(type) reaches the outside world (network, disk, clock or randomness)"
        let container = resolution.containerType.map { "\($0)" } ?? "the container"
        let ownContainer = context.container.map { ObjectIdentifier($0) == resolution.containerID } ?? false
        if let id = resolution.containerID, let overrides = Interception.overrides as? OverrideSet,
            overrides.hasRelativeOverride(of: name, type: resolution.requestedType, container: id)
        {
            // The override builds on the live value, so the live code ran: a value override, or going live.
            return """
                \(reachesOutside), and this test overrides it relatively: `.override({ $0.\(name) }) { … }` \
                transforms the value \(container)'s `live {}` code serves, so that code ran.
                To keep the test from going live, replace the relative override with a value, \(context.spelling.overridePlace(orWithDependencies: false)):
                    .override({ $0.\(name) }, with: …)
                If this test decorates the live value on purpose (an end-to-end test), \(context.spelling.goLive).
                """
        }
        let installed = context.container.map { "\(Swift.type(of: $0))" } ?? "a container"
        var effect =
            ownContainer
            ? "the container this test installed"
            : "from a `withDependencies` scope inside this test (the test installed \(installed))"
        let ownCode =
            resolution.implementerType.map(ObjectIdentifier.init) == resolution.containerType.map(ObjectIdentifier.init)
        let isPartial = resolution.containerType.map { $0 is any PartialContainer.Type } ?? false
        var declaration = "\(name) -> \(type) { fresh { … } }"
        if !isExistential(resolution.requestedType) {
            // The builder builds the declared type, except for a body that is a single `return`, which
            // builds its expression's. Nothing at run time tells the two apart, so the note says only
            // what holds either way.
            declaration += """

                (\(type) is the type \(name)'s body built. If \(name) declares another type, write that one.)
                """
        }
        // Code that bypassed the test's scope needs the code fixed, not an override.
        let bypassedTheScope = resolution.servedByAnInstalledGlobal && !ownContainer
        let servedBy: String
        let fix: String
        if bypassedTheScope {
            effect =
                "the global container, not \(installed), which this test installed: code in this test read "
                + "the global container instead of the test's scope"
            servedBy = "the global container's `live {}` code"
            fix = """
                Code in this test bypassed its scope: inside the test, `dependencies` serves the test's \
                container, and a `DependencyContainer.Context` captured in the test carries it into escaping work. Find \
                the code that read the global container directly.
                """
        } else if !ownCode, let implementer = resolution.implementerType {
            servedBy = "the production code that \(container) inherits from \(implementer)"
            fix = """
                Override it in \(container):
                    override func \(declaration)
                """
        } else if isPartial {
            servedBy = "\(container)'s `live {}` code: the protocol's default, or \(container)'s own resolve"
            fix = """
                Implement it in \(container), building the value with `fresh {}` (a double's resolves do not \
                reach the outside world):
                    func \(declaration)
                """
        } else {
            servedBy = "\(container)'s own `live {}` code"
            fix = """
                If \(container) is a test double, its resolve is production-shaped: build the value with \
                `fresh { … }` instead of `live { … }`. If it is a production container, give the test a double \
                that overrides it:
                    override func \(declaration)
                """
        }
        // The one-line override first, where it applies: a resolve without arguments, served by the
        // container the test scoped.
        let oneLine =
            name.contains(":") || bypassedTheScope
            ? ""
            : """
            Override it in this test, in one line, \(context.spelling.overridePlace(orWithDependencies: true)):
                .override({ $0.\(name) }, with: …)
            Or, for every test that uses the container:

            """
        return """
            \(reachesOutside) and was served by \(servedBy).
            Container in effect: \(container), \(effect).
            \(oneLine)\(fix)
            If this test means to go live (an end-to-end test), \(context.spelling.goLive).
            """
    }

    /// A type as it is written in a declaration, so that a suggested line compiles when pasted: `any Clock`
    /// for an existential, which Swift prints as `Clock`; a nested type with the types it is nested in
    /// (`Outer.Reader`), and a generic one with its arguments (`Box<Outer.Reader>`), without module names.
    static func typeName(_ type: any Any.Type) -> String {
        let name = unqualified(String(reflecting: type))
        guard name != "Any", name != "AnyObject" else { return name }
        return isExistential(type) ? "any \(name)" : name
    }

    /// `reflected` (`String(reflecting:)` of a type) with the module name that starts each qualified name
    /// dropped, and the contexts a private or local type (`(unknown context at $…)`) or a type nested in
    /// another module's type (`(extension in Module):`) is printed with.
    package static func unqualified(_ reflected: String) -> String {
        // In this order: the extension's context, the module that starts each qualified name (an
        // identifier after neither a dot nor another identifier, followed by a member), the unknown context.
        [#"\(extension in [^)]*\):"#, #"(?<![\w.])\w+\.(?=[A-Za-z_(])"#, #"\(unknown context at [^)]*\)\."#]
            .reduce(reflected) { $0.replacingOccurrences(of: $1, with: "", options: .regularExpression) }
    }

    /// Whether `type` is an existential (`any P`, `any P & Q`, `any P<X>`).
    ///
    /// Read from the metadata's kind, the first word of every non-class type's metadata: the kinds are
    /// part of Swift's stable ABI (`MetadataKind`: existential 0x303, extended existential 0x307). A
    /// message-only helper, never on a resolution's path.
    static func isExistential(_ type: any Any.Type) -> Bool {
        let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
        return kind == 0x303 || kind == 0x307
    }
}

/// The words of each test framework that the live-leaf messages use.
extension GuardedTest.Spelling {
    /// Where a test declares an override; in Swift Testing, with `withDependencies` named when the
    /// override can replace the container's resolve there too.
    func overridePlace(orWithDependencies: Bool) -> String {
        switch self {
        case .xcTest: "after the container in `useDependencies`"
        case .swiftTesting: "in the trait (or \(orWithDependencies ? "`withDependencies`, " : "")`withOverrides`)"
        }
    }

    /// How a test says that it goes live on purpose.
    var goLive: String {
        switch self {
        case .xcTest: "pass `allowingLiveDependencies: true` to `useDependencies`"
        case .swiftTesting: "add `.allowsLiveDependencies` to it or its suite"
        }
    }
}
