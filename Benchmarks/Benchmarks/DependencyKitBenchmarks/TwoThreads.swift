import Foundation

/// Runs `body` on two threads at once and returns when both are done.
///
/// Each thread runs the whole loop, so the time per iteration that the benchmark reports is the
/// cost per resolve on each thread while the other resolves too.
func onTwoThreads(_ body: @escaping @Sendable () -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
        group.enter()
        let thread = Thread {
            start.wait()
            body()
            group.leave()
        }
        thread.start()
    }
    start.signal()
    start.signal()
    group.wait()
}
