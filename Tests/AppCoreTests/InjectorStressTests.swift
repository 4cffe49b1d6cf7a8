import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

private final class NumberedDependency: CoreDependency, @unchecked Sendable {
    let number: Int
    init(number: Int) {
        self.number = number
        super.init()
    }
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        HTTPConfiguration(baseURL: URL(string: "http://127.0.0.1:\(20_000 + number)")!)
    }
}

/// The blog's unsynchronised global crashes under this load ("deallocated with non-zero retain
/// count"); ours must stay correct and TSan-clean.
struct InjectorStressTests {
    @Test(.allowsGlobalInstalls) func swappingTheGlobalWhileManyTasksResolveAndScopedTasksRun() async {
        let swaps = 200
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for number in 0..<swaps {
                    DependencyInjector.dependencies = NumberedDependency(number: number)
                    if number % 16 == 0 { await Task.yield() }
                }
            }
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        // Whatever is installed, the graph must be whole and consistent.
                        let container = DependencyInjector.dependencies
                        let port = container.resolveHTTPConfiguration().baseURL.port ?? 0
                        #expect(port == 8080 || (20_000..<20_000 + swaps).contains(port))
                        _ = container.resolveUsersWorker()
                        _ = container.resolveAuthenticationWorker()
                    }
                }
            }
            for task in 0..<8 {
                group.addTask {
                    let mine = NumberedDependency(number: 1_000 + task)
                    await withDependencies(mine) {
                        for _ in 0..<200 {
                            #expect(DependencyInjector.dependencies === mine)
                            _ = DependencyInjector.dependencies.resolveUsersWorker()
                            await Task.yield()
                        }
                    }
                }
            }
        }
    }
}
