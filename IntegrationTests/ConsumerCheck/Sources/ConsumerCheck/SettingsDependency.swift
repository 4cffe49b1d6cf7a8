import DependencyKit

// A container declared from scratch with the engine, in a module whose default isolation is
// MainActor: the declarations that make up the container are `nonisolated`, and single
// resolves opt into the main actor.

// snippet: concurrency-engine-domain
nonisolated struct Theme: Sendable, Equatable {
    let name: String
}

nonisolated protocol ThemeStore: Sendable {
    func loadTheme() async -> Theme
}

nonisolated struct BundledThemeStore: ThemeStore {
    func loadTheme() async -> Theme { Theme(name: "Light") }
}

@MainActor
final class SettingsViewModel {
    let theme: Theme

    init(theme: Theme) { self.theme = theme }
}
// end-snippet

// snippet: concurrency-engine-container
nonisolated protocol SettingsDependency: DependencyContainer {
    func resolveThemeStore() -> any ThemeStore
    func resolveTheme() async -> Theme
    @MainActor func resolveSettingsViewModel() async -> SettingsViewModel
}

nonisolated extension SettingsDependency {
    func makeTheme() async -> Theme { await resolveThemeStore().loadTheme() }

    @MainActor func makeSettingsViewModel() async -> SettingsViewModel {
        SettingsViewModel(theme: await resolveTheme())
    }
}

nonisolated extension SettingsDependency where Self: PartialContainer {
    func resolveThemeStore() -> any ThemeStore { live { BundledThemeStore() } }
    func resolveTheme() async -> Theme { await fresh { await makeTheme() } }
    @MainActor func resolveSettingsViewModel() async -> SettingsViewModel {
        await fresh { await makeSettingsViewModel() }
    }
}

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
final class CoreSettingsDependency: DependencyContainer, SettingsDependency, @unchecked Sendable {
    func resolveThemeStore() -> any ThemeStore { live { BundledThemeStore() } }
    func resolveTheme() async -> Theme { await fresh { await makeTheme() } }
    @MainActor func resolveSettingsViewModel() async -> SettingsViewModel {
        await fresh { await makeSettingsViewModel() }
    }
}

nonisolated let settingsInjector = Injector<any SettingsDependency> { CoreSettingsDependency() }
// end-snippet

// snippet: concurrency-engine-double
nonisolated struct DarkThemeStore: ThemeStore {
    func loadTheme() async -> Theme { Theme(name: "Dark") }
}

// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
// (state lives in shared instances or behind a lock).
final class DarkThemeDependency: DependencyContainer, SettingsDependency, PartialContainer,
    @unchecked Sendable
{
    func resolveThemeStore() -> any ThemeStore { fresh { DarkThemeStore() } }
}
// end-snippet
