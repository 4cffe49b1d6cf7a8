import Foundation
import Testing

@testable import HTTPServiceKit

/// A compressed body is held to the limit by its decoded size, and decoding it never costs more
/// memory than a small multiple of the limit, against a real gzip bomb on loopback. The bound
/// leaves room for tests running in parallel and for ThreadSanitizer; an unbounded client grows by
/// more than the whole decoded gigabyte.
@Suite struct HTTPServiceCompressionTests {
    /// No `Content-Length`: the body ends when the server closes, so only its decoded size can
    /// break the limit, while it streams.
    @Test func gzipBombEndsInResponseTooLargeWithMemoryBounded() async throws {
        let limit = 1 << 20
        let bomb = GzipBomb(minimumDecodedBytes: 1 << 30)
        let head = """
            HTTP/1.1 200 OK\r
            Content-Type: application/json\r
            Content-Encoding: gzip\r
            Connection: close
            """
        let reply = LoopbackServer.Reply.repeating(
            head: head,
            prefix: bomb.prefix,
            unit: bomb.unit,
            count: bomb.count,
            suffix: bomb.suffix
        )
        try await withLoopbackServer(reply) { server in
            let service = HTTPService(
                configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 60, maximumResponseBytes: limit)
            )
            let peak = PeakMemory()
            await #expect(throws: HTTPError.responseTooLarge(limit: limit)) {
                let _: [User] = try await service.get("/users", token: nil)
            }
            let growth = peak.growth()
            print(
                "gzip bomb: \(bomb.encodedBytes) bytes decoding to \(bomb.decodedBytes); peak RSS growth \(growth.map { "\($0 >> 20) MiB" } ?? "unknown")"
            )
            if let growth {
                // Under ThreadSanitizer every byte the process touches has shadow memory of its own, and
                // the peak is the whole process's, other tests included: twice the room there.
                let bound = (isThreadSanitized ? 768 : 384) * limit
                #expect(growth < bound, "peak RSS grew by \(growth >> 20) MiB against a \(limit >> 20) MiB limit")
            }
            let request = String(decoding: try #require(server.requests.first), as: UTF8.self).lowercased()
            #expect(request.contains("accept-encoding: identity"))
        }
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime is linked in).
private let isThreadSanitized: Bool = {
    #if canImport(Glibc)
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    #else
        false
    #endif
}()

/// The process's peak resident memory (`VmHWM`), reset at creation where Linux allows it.
struct PeakMemory {
    private let start: Int?

    init() {
        // Writing 5 to clear_refs resets the high-water mark to the current resident size.
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        start = Self.read()
    }

    /// How far the peak rose since creation, in bytes; `nil` where `/proc` is not available.
    func growth() -> Int? {
        guard let start, let now = Self.read() else { return nil }
        return now - start
    }

    private static func read() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
