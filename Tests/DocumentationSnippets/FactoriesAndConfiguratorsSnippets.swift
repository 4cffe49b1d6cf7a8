import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of FactoriesAndConfigurators.md, over the weather container of NeutralDomain.swift.

// snippet: factories-factory-module
final class CityForecastModel: FactoryModule, Sendable {
    struct Dependency: Sendable {
        let forecasts: any ForecastService
    }

    struct Payload {
        let city: String
    }

    let forecasts: any ForecastService
    let city: String

    init(dependency: Dependency, payload: Payload) {
        forecasts = dependency.forecasts
        city = payload.city
    }
}
// end-snippet

protocol WeatherIcons: Sendable {
    func iconURL(for forecast: Forecast) -> URL
}

struct SummaryWeatherIcons: WeatherIcons {
    func iconURL(for forecast: Forecast) -> URL {
        URL(string: "https://icons.example.com/\(forecast.summary.lowercased())")!
    }
}

// snippet: factories-configurator-module
final class CityCell: ConfiguratorModule {
    struct Dependency: Sendable { let icons: any WeatherIcons }
    struct Payload: Sendable { let forecast: Forecast }

    var title = ""
    var iconURL: URL?

    func configure(dependency: Dependency, payload: Payload) {
        title = "\(payload.forecast.city), \(Int(payload.forecast.celsius)) °C"
        iconURL = dependency.icons.iconURL(for: payload.forecast)
    }
}
// end-snippet

class CityScreenDependency: CoreWeatherDependency, @unchecked Sendable {
    // snippet: factories-factory
    // In the container; the autoclosure escapes, hence `self.`
    open func resolveCityForecastFactory() -> CityForecastModel.Factory {
        fresh { .init(dependency: .init(forecasts: self.resolveForecastService())) }
    }
}  // snippet.hide

func show(_ city: String, forecastFactory: CityForecastModel.Factory) -> CityForecastModel {  // snippet.hide
    // In the list, when a row is tapped
    let model = forecastFactory.create(payload: .init(city: city))
    return model  // snippet.hide
    // end-snippet
}

class CityCellDependency: CoreWeatherDependency, @unchecked Sendable {
    func resolveWeatherIcons() -> any WeatherIcons { fresh { SummaryWeatherIcons() } }

    // snippet: factories-configurator
    open func resolveCityCellConfigurator() -> CityCell.Configurator {
        fresh { .init(dependency: .init(icons: self.resolveWeatherIcons())) }
    }
}  // snippet.hide

func configureCell(_ cell: CityCell, for forecast: Forecast, cellConfigurator: CityCell.Configurator) {  // snippet.hide
    cellConfigurator.configure(cell, payload: .init(forecast: forecast))
    // end-snippet
}

// snippet: factories-customising
extension Factory where Module == CityForecastModel {
    func create(for city: String) -> CityForecastModel {
        create(payload: .init(city: city))
    }
}
// end-snippet

@MainActor
final class CityViewController {
    let forecasts: any ForecastService
    let city: String

    init(forecasts: any ForecastService, city: String) {
        self.forecasts = forecasts
        self.city = city
    }
}

// snippet: factories-main-actor
extension CityViewController: @MainActor FactoryModule {
    struct Dependency: Sendable { let forecasts: any ForecastService }
    typealias Payload = String

    convenience init(dependency: Dependency, payload: String) {
        self.init(forecasts: dependency.forecasts, city: payload)
    }
}
// end-snippet

class ControllersDependency: CoreWeatherDependency, @unchecked Sendable {
    // snippet: factories-main-actor-resolve
    @MainActor
    open func resolveCityFactory() -> CityViewController.Factory {
        fresh { .init(dependency: .init(forecasts: self.resolveForecastService())) }
    }
    // end-snippet
}

/// The list screen's model: creates forecast models and configures cells through what it was given.
struct CityListModel {
    let forecasts: [Forecast]
    let cityFactory: CityForecastModel.Factory
    let cellConfigurator: CityCell.Configurator

    func select(row: Int) -> CityForecastModel {
        cityFactory.create(for: forecasts[row].city)
    }

    func configure(_ cell: CityCell, at row: Int) {
        cellConfigurator.configure(cell, payload: .init(forecast: forecasts[row]))
    }
}

@Suite struct FactoriesAndConfiguratorsTests {
    let lisbon = Forecast(city: "Lisbon", celsius: 21)

    @Test func theContainersFactoryCreatesAModelPerPayload() {
        let factory = CityScreenDependency().resolveCityForecastFactory()
        let model = show("Lisbon", forecastFactory: factory)
        #expect(model.city == "Lisbon")
        #expect(model.forecasts is NetworkForecastService)
        #expect(factory.create(for: "Lisbon") !== model)
    }

    @Test func theContainersConfiguratorSetsUpACell() {
        let cell = CityCell()
        configureCell(cell, for: lisbon, cellConfigurator: CityCellDependency().resolveCityCellConfigurator())
        #expect(cell.title == "Lisbon, 21 °C")
        #expect(cell.iconURL?.lastPathComponent == "mild")
    }

    @Test @MainActor func aMainActorModuleIsCreatedOnTheMainActor() {
        let controller = ControllersDependency().resolveCityFactory().create(payload: "Oslo")
        #expect(controller.city == "Oslo")
    }

    @Test func stubsControlWhatTheCodeUnderTestCreates() {
        let forecasts = [lisbon]
        let cell = CityCell()
        // snippet: factories-testing
        let offline = NetworkForecastService(client: OfflineNetworkClient())
        let detail = CityForecastModel(dependency: .init(forecasts: offline), payload: .init(city: "Lisbon"))
        let list = CityListModel(
            forecasts: forecasts,
            cityFactory: .stub(returning: detail),
            cellConfigurator: .stub { _, _ in }
        )
        #expect(list.select(row: 0) === detail)

        let recorder = PayloadRecorder<CityCell.Payload>()
        let model = CityListModel(
            forecasts: forecasts,
            cityFactory: .stub(returning: detail),
            cellConfigurator: .stub(recordingInto: recorder)
        )
        model.configure(cell, at: 0)
        #expect(recorder.payloads.map(\.forecast.city) == ["Lisbon"])
        // end-snippet
    }
}
