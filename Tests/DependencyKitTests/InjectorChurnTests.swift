import DependencyKit
import Testing

@testable import DependencyKit

private protocol ChurnDependency: DependencyContainer {}
private final class ChurnCore: DependencyContainer, ChurnDependency, @unchecked Sendable {}
private let churnInjector = Injector<any ChurnDependency> { ChurnCore() }

/// Installed containers are kept as long as their storage; installing in a loop is reported.
struct InjectorChurnTests {
    private typealias Churn = Injector<any ChurnDependency>.InstallChurn

    @Test func installsInALoopAreReportedInEveryBuild() {
        // A storage of its own, freed (with every container it kept) when the test ends.
        let storage = Injector<any ChurnDependency> { ChurnCore() }
        for _ in 0..<Churn.threshold {
            storage.install(ChurnCore())
        }
        #expect(storage.hasSeenInstallChurn)
    }

    @Test func installingPerTestIsNotReported() {
        let storage = Injector<any ChurnDependency> { ChurnCore() }
        for _ in 0..<200 {
            storage.install(ChurnCore())
            storage.reset()
        }
        #expect(!storage.hasSeenInstallChurn)
    }

    @Test func theRateIsSustainedThousandsPerSecondAndIsReportedOnce() {
        let millisecond: Int64 = 1_000_000
        // 1,000 a second: crossed by the install that makes 10,000 within 10 seconds, then silent.
        var fast = Churn()
        let crossings = (0..<(2 * Churn.threshold)).filter { fast.record(at: Int64($0) * millisecond) }
        #expect(crossings == [Churn.threshold - 1])
        #expect(fast.isCrossed)

        // 500 a second for 40 seconds, as many installs as a large suite makes in total: never crossed.
        var slow = Churn()
        let slowCrossings = (0..<(2 * Churn.threshold)).filter { slow.record(at: Int64($0) * 2 * millisecond) }
        #expect(slowCrossings.isEmpty)
        #expect(!slow.isCrossed)
    }
}
