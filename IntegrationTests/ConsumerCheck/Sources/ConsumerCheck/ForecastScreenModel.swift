import ForecastKit

// snippet: concurrency-view-model
@MainActor
final class ForecastScreenModel: HasForecastScreenDependencies {
    private(set) var summary = "Loading"
    private(set) var headline = ""

    func load() async {
        headline = await dependencies.resolveHeadline()
        summary = await dependencies.resolveForecaster().summary()
    }
}
// end-snippet
