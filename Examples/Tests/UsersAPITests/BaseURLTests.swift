import Foundation
import Testing

@testable import UsersAPI

/// The URL a server names itself by, for every kind of host it can bind.
@Suite struct BaseURLTests {
    @Test(arguments: [
        ("127.0.0.1", "http://127.0.0.1:8080"),
        ("localhost", "http://localhost:8080"),
        ("0.0.0.0", "http://127.0.0.1:8080"),
        ("::1", "http://[::1]:8080"),
        ("[::1]", "http://[::1]:8080"),
        ("::", "http://[::1]:8080"),
        ("0:0:0:0:0:0:0:0", "http://[::1]:8080"),
        ("2001:db8::5", "http://[2001:db8::5]:8080"),
        ("fe80::1%eth0", "http://[fe80::1%25eth0]:8080"),
    ])
    func ipv6HostsAreBracketedAndUnspecifiedOnesReachedThroughLoopback(host: String, url: String) {
        #expect(UsersServer.baseURL(host: host, port: 8080)?.absoluteString == url)
    }

    @Test(arguments: ["", "a b", "[]"])
    func hostNoURLCanNameHasNoBaseURL(host: String) {
        #expect(UsersServer.baseURL(host: host, port: 8080) == nil)
    }
}
