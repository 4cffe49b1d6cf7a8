import Testing

@testable import DependencyKit

struct ConfiguratorTests {
    @Test func configureCombinesTheDependencyWithThePayload() {
        let evaluations = Counter()
        let configurator = ItemCell.Configurator(dependency: makeCellDependency(evaluations))
        let cell = ItemCell()
        configurator.configure(cell, payload: .init(title: "Ada"))
        #expect(cell.title == "Ada")
        #expect(cell.store === configurator.dependency.store)
    }

    @Test func dependencyIsEvaluatedLazilyAndOnceAcrossManyConfigurations() {
        let evaluations = Counter()
        let configurator = ItemCell.Configurator(dependency: makeCellDependency(evaluations))
        #expect(evaluations.count == 0)
        let cells = (0..<20).map { index in
            let cell = ItemCell()
            configurator.configure(cell, payload: .init(title: "row \(index)"))
            return cell
        }
        #expect(evaluations.count == 1)
        #expect(cells.map(\.title) == (0..<20).map { "row \($0)" })
        #expect(cells.allSatisfy { $0.store === cells[0].store })
    }

    @Test func concurrentConfigurationsEvaluateTheDependencyExactlyOnce() async {
        let evaluations = Counter()
        let configurator = ItemCell.Configurator(dependency: makeCellDependency(evaluations))
        let results = await withTaskGroup(of: (String?, ObjectIdentifier?).self) { group in
            for index in 0..<128 {
                group.addTask {
                    let cell = ItemCell()
                    configurator.configure(cell, payload: .init(title: "\(index)"))
                    return (cell.title, cell.store.map(ObjectIdentifier.init))
                }
            }
            return await group.reduce(into: [(String?, ObjectIdentifier?)]()) { $0.append($1) }
        }
        #expect(evaluations.count == 1)
        #expect(Set(results.compactMap(\.0)) == Set((0..<128).map { "\($0)" }))
        #expect(Set(results.compactMap(\.1)).count == 1)
    }

    @Test func voidDependencyConfiguresWithAPayloadOnly() {
        let configurator = TitleLabel.Configurator()
        let label = TitleLabel()
        configurator.configure(label, payload: "Users")
        #expect(label.text == "Users")
        label.configure(payload: "Again")
        #expect(label.text == "Again")
    }

    @Test func voidPayloadConfiguresWithTheModuleOnly() {
        let configurator = ThemeView.Configurator(dependency: "dark")
        let view = ThemeView()
        configurator.configure(view)
        #expect(view.theme == "dark")
        let other = ThemeView()
        other.configure(dependency: "light")
        #expect(other.theme == "light")
    }
}
