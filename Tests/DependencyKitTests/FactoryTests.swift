import Testing

@testable import DependencyKit

struct FactoryTests {
    @Test func createCombinesTheDependencyWithThePayload() {
        let store = Store(serial: 7)
        let evaluations = Counter()
        let factory = DetailModel.Factory(dependency: makeDetailDependency(evaluations, store: store))
        let model = factory.create(payload: .init(itemID: 42))
        #expect(model.itemID == 42)
        #expect(model.dependency.store === store)
    }

    @Test func dependencyIsNotEvaluatedUntilFirstUse() {
        let evaluations = Counter()
        let factory = DetailModel.Factory(dependency: makeDetailDependency(evaluations))
        #expect(evaluations.count == 0)
        _ = factory.create(payload: .init(itemID: 1))
        #expect(evaluations.count == 1)
    }

    @Test func dependencyIsEvaluatedOnceAcrossManyCreates() {
        let evaluations = Counter()
        let factory = DetailModel.Factory(dependency: makeDetailDependency(evaluations))
        let models = (0..<50).map { factory.create(payload: .init(itemID: $0)) }
        #expect(evaluations.count == 1)
        #expect(models.map(\.itemID) == Array(0..<50))
        #expect(models.allSatisfy { $0.dependency.store === models[0].dependency.store })
        #expect(models[0] !== models[1])
    }

    @Test func concurrentCreatesEvaluateTheDependencyExactlyOnce() async {
        let evaluations = Counter()
        let factory = DetailModel.Factory(dependency: makeDetailDependency(evaluations))
        let results = await withTaskGroup(of: (Int, ObjectIdentifier).self) { group in
            for index in 0..<128 {
                group.addTask {
                    let model = factory.create(payload: .init(itemID: index))
                    return (model.itemID, ObjectIdentifier(model.dependency.store))
                }
            }
            return await group.reduce(into: [(Int, ObjectIdentifier)]()) { $0.append($1) }
        }
        #expect(evaluations.count == 1)
        #expect(Set(results.map(\.0)) == Set(0..<128))
        #expect(Set(results.map(\.1)).count == 1)
    }

    @Test func copiesOfAFactoryShareOneEvaluation() {
        let evaluations = Counter()
        let factory = DetailModel.Factory(dependency: makeDetailDependency(evaluations))
        let copy = factory
        #expect(copy.dependency.store === factory.dependency.store)
        #expect(evaluations.count == 1)
    }

    @Test func dependencyResolvedFromAContainerComesFromThatContainer() {
        let container = LifetimeCore()
        let evaluations = Counter()
        let factory = DetailModel.Factory(
            dependency: .init(store: container.resolveStore(), evaluations: evaluations)
        )
        #expect(factory.create(payload: .init(itemID: 1)).dependency.store === container.resolveStore())
    }

    @Test func constrainedExtensionCustomisesCreation() {
        let factory = DetailModel.Factory(dependency: makeDetailDependency(Counter()))
        let model = factory.create(itemID: 3, extra: "pinned")
        #expect(model.itemID == 3)
        #expect(model.extra == "pinned")
    }

    @Test func voidDependencyAndPayloadNeedNeitherArgument() {
        let factory = Banner.Factory()
        #expect(factory.create().text == "welcome")
        #expect(Banner().text == "welcome")
    }

    @Test func voidDependencyTakesOnlyAPayload() {
        let factory = Factory<Badge>()
        #expect(factory.create(payload: 3).count == 3)
        #expect(Badge(payload: 5).count == 5)
    }

    @Test func voidPayloadCreatesWithoutArguments() {
        let factory = Clock.Factory(dependency: 1_700)
        #expect(factory.create().now == 1_700)
        #expect(factory.dependency == 1_700)
        #expect(Clock(dependency: 9).now == 9)
    }

    @Test func factoryCrossesIntoOtherTasks() async {
        let factory = Clock.Factory(dependency: 12)
        let now = await Task.detached { factory.create().now }.value
        #expect(now == 12)
    }
}
