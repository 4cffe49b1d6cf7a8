import Testing

@testable import DependencyKit

/// A struct consumer: reads from non-mutating methods.
struct RouteViewModel {
    @Inject(routeInjector, { $0.resolveGreeting() }) var greeting
    @Inject(routeInjector, { $0.resolveRecorder() }) var recorder

    func title() -> String { greeting }
}

final class RouteController {
    @Inject(routeInjector, { $0.resolveHour() }) var hour
}

@MainActor final class RouteScreen {
    @Inject(routeInjector, { $0.resolveGreeting() }) var greeting
}

@Suite struct InjectTests {
    @Test func aStructReadsFromTheContainerInEffectWithoutMutating() {
        let model = RouteViewModel()
        let title = withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 23)) { model.title() }
        #expect(title == "Good evening")
    }

    @Test func theValueIsResolvedOncePerOwnerAndSharedByCopies() {
        let model = RouteViewModel()
        let copy = model
        withDependencies(RouteCore()) {
            #expect(model.recorder === model.recorder)
            #expect(copy.recorder === model.recorder)
            #expect(RouteViewModel().recorder === model.recorder)  // the container's shared instance
        }
        let other = withDependencies(RouteCore()) { RouteViewModel().recorder }
        #expect(other !== model.recorder)
    }

    @Test func theValueFollowsTheContainerInEffect() {
        let controller = RouteController()
        let container = RouteCore()
        withDependencies(container, .override({ $0.resolveHour() }, with: 23)) {
            #expect(controller.hour == 23)
            #expect(controller.hour == 23)
        }
        // Another container (the next test's): resolved again, never the last test's value.
        withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 5)) { #expect(controller.hour == 5) }
    }

    @Test @MainActor func aMainActorTypeReadsItsValue() {
        let screen = RouteScreen()
        withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 20)) {
            #expect(screen.greeting == "Good evening")
        }
    }

    @Test(arguments: 0..<64)
    func parallelScopedReadersEachReadTheirOwnContainer(hour: Int) async {
        let (model, controller) = (RouteViewModel(), RouteController())
        await withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: hour)) {
            await Task.yield()
            #expect(controller.hour == hour)
            #expect(model.title() == (hour < 12 ? "Good morning" : "Good evening"))
        }
    }
}
