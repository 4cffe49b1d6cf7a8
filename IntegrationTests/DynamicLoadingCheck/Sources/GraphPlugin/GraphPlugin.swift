import DependencyKit

/// A small container, as a plug-in would declare one.
protocol PluginDependency: DependencyContainer {
    func resolveGreeting() -> String
    func resolveDraft() -> Draft
    func resolveEditor() -> Editor
}

let pluginInjector = Injector<any PluginDependency> { PluginCore(name: "global") }

final class Draft: Sendable {}

struct Editor: Sendable {
    let greeting: String
    let draft: Draft
    let previewDraft: Draft
}

class PluginCore: DependencyContainer, PluginDependency, @unchecked Sendable {
    let name: String

    init(name: String) {
        self.name = name
        super.init()
    }

    func resolveGreeting() -> String { fresh { "hello from \(name)" } }
    func resolveDraft() -> Draft { perGraph { Draft() } }
    func resolveEditor() -> Editor {
        fresh { Editor(greeting: resolveGreeting(), draft: resolveDraft(), previewDraft: resolveDraft()) }
    }
}

/// Resolves a graph through the global container and through a scope, with a per-graph instance:
/// every thread-local of the engine (depth, graph, scope slot) and its task-local are used.
/// - Returns: 0 when every answer is right, else the number of the first wrong one.
@_cdecl("dependencykit_plugin_resolve_graph")
public func resolveGraph() -> Int32 {
    let global = pluginInjector.dependencies.resolveEditor()
    guard global.greeting == "hello from global" else { return 1 }
    guard global.draft === global.previewDraft else { return 2 }
    let scoped = withDependencies(PluginCore(name: "scoped")) { pluginInjector.dependencies.resolveEditor() }
    guard scoped.greeting == "hello from scoped" else { return 3 }
    guard scoped.draft === scoped.previewDraft, scoped.draft !== global.draft else { return 4 }
    return 0
}
