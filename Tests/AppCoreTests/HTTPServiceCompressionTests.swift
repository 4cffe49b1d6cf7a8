import Foundation
import Testing

@testable import AppCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
                #expect(growth < 384 * limit, "peak RSS grew by \(growth >> 20) MiB against a \(limit >> 20) MiB limit")
            }
            let request = String(decoding: try #require(server.requests.first), as: UTF8.self).lowercased()
            #expect(request.contains("accept-encoding: identity"))
        }
    }
}

extension HTTPServiceCompressionTests {
    /// The transfer stops as soon as the decoded size passes the limit: a 2 GiB bomb is refused
    /// once little more than the limit has been decoded, not after decoding it to the end (which
    /// took 8.9 s of CPU). A bound in bytes, not seconds: it does not depend on the machine's load.
    @Test func twoGiBGzipBombStopsDecodingSoonAfterTheLimit() async throws {
        let limit = 1 << 20
        let bomb = GzipBomb(minimumDecodedBytes: 2 << 30)
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
            let port = server.port
            let decoded = Lock<Int?>(nil)
            ResponseLoader.transferObserver.withLock { observer in
                observer = { url, bytes in
                    if url?.port == Int(port) { decoded.withLock { $0 = bytes } }
                }
            }
            defer { ResponseLoader.transferObserver.withLock { $0 = nil } }
            let service = HTTPService(
                configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 60, maximumResponseBytes: limit)
            )
            let cpu = ProcessCPUTime()
            await #expect(throws: HTTPError.responseTooLarge(limit: limit)) {
                let _: [User] = try await service.get("/users", token: nil)
            }
            let seconds = cpu.elapsed()
            let bytes = try #require(decoded.withLock { $0 })
            print(
                "2 GiB gzip bomb: \(bomb.decodedBytes >> 20) MiB encoded as \(bomb.encodedBytes >> 10) KiB; "
                    + "refused after \(bytes >> 20) MiB decoded; process CPU \(seconds.map { "\($0) s" } ?? "unknown")"
            )
            #if canImport(FoundationNetworking)
                // The limit, and at most one 16 KiB read of libcurl's decoded (16 MiB at this ratio).
                #expect(bytes <= limit + 32 << 20, "decoded \(bytes >> 20) MiB of \(bomb.decodedBytes >> 20) MiB")
            #else
                #expect(bytes < bomb.decodedBytes / 2, "decoded \(bytes >> 20) MiB of \(bomb.decodedBytes >> 20) MiB")
            #endif
        }
    }
}

/// The CPU time the whole process has used (user and system) since creation.
struct ProcessCPUTime {
    private let start: Double?

    init() { start = Self.read() }

    /// Seconds of CPU since creation; `nil` where it cannot be read.
    func elapsed() -> Double? {
        guard let start, let now = Self.read() else { return nil }
        return now - start
    }

    private static func read() -> Double? {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return nil }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

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
