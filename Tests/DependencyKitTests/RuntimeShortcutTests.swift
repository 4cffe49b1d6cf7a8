import Testing

@testable import DependencyKit

/// Debug builds check every runtime shortcut (RuntimeShortcuts.swift) against the public API on each
/// use, so the whole suite cross-checks them; these pin down that the checks agree where they
/// should, and that a shortcut whose assumption broke stops naming itself and the public-API build.
struct RuntimeShortcutTests {
    @Test func theTaskLocalReadAgreesWithTaskLocalGet() async {
        #expect(ScopeFrame.current == nil)
        await withDependencies(ToyCore(marker: 81)) {
            let head = ScopeFrame.borrowedHead
            #expect(head != nil)
            #expect(head == ScopeFrame.current.map { address(of: $0) })
            await Task.detached { #expect(ScopeFrame.current == nil) }.value
        }
    }

    #if !PublicAPIOnly
        @Test func theCurrentTaskAddressIsTheTaskWithUnsafeCurrentTaskSees() async {
            let inTask = currentTaskAddress()
            #expect(inTask != nil)
            #expect(inTask?.hashValue == withUnsafeCurrentTask { $0?.hashValue })
            let other = await Task.detached { currentTaskAddress().map { Int(bitPattern: $0) } }.value
            #expect(other != nil)
            #expect(other != inTask.map { Int(bitPattern: $0) })
        }
    #endif

    #if DEBUG && !PublicAPIOnly
        @Test func aThreadSlotThatDisagreesWithTheTaskLocalStopsNamingTheShortcut() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                withDependencies(ToyCore(marker: 82)) {
                    // The slot says "no scope" while the task-local holds this scope's frame: what a
                    // runtime that broke the shortcut's assumption would leave.
                    _ = ScopeFrame.withThreadSlot(nil) { currentMarker() }
                }
            }
            let output = standardError(of: result)
            #expect(output.contains("runtime shortcut per-thread scope chain disagrees with the public API"))
            #expect(output.contains("`PublicAPIOnly` package trait"))
        }

        @Test func aTaskLocalReadUnderAnotherKeyStopsNamingTheEntryPoint() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                withDependencies(ToyCore(marker: 83)) {
                    // Another task-local's key: what a runtime that keyed task-locals differently would
                    // answer.
                    _ = borrowedTaskLocalObject(
                        ScopeFrame.chainLocal, key: GraphFrame.currentKey, unbound: ScopeFrame.root)
                }
            }
            #expect(standardError(of: result).contains("`swift_task_localValueGet` disagrees with the public API"))
        }

        @Test func aCurrentTaskThatIsNotTheTaskStopsNamingTheEntryPoint() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                RuntimeShortcutCheck.currentTask(UnsafeRawPointer(bitPattern: 0x1000))
            }
            #expect(standardError(of: result).contains("`swift_task_getCurrent` disagrees with the public API"))
        }

        @Test func aKeptConversionOfAnotherContainerStopsNamingTheShortcut() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let bound = ToyCore(marker: 84)
                let other = ToyCore(marker: 85)
                // The other container's conversion, kept in the list of the container the frame binds.
                _ = ContainerConversions.add(
                    other as any ToyDependency, of: other, to: bound.sharedInstances.conversions)
                let frame = ScopeFrame(owner: bound, parent: nil)
                _ = ScopeFrame.bind(frame) { currentMarker() }
                withExtendedLifetime(other) {}
            }
            #expect(
                standardError(of: result).contains("kept conversion to ToyDependency disagrees with the public API"))
        }
    #endif
}
