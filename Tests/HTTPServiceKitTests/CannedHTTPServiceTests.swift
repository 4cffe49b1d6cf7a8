import HTTPServiceKit
import Testing

@Suite struct CannedHTTPServiceTests {
    struct Profile: Codable, Sendable, Equatable {
        let name: String
    }

    @Test func aGetDecodesThePathsCannedJSONIntoTheTypeTheCallerAsksFor() async throws {
        let service = CannedHTTPService(answers: ["/profile": #"{"name":"Ada"}"#])
        let profile: Profile = try await service.get("/profile", token: Secret("t1"))
        #expect(profile == Profile(name: "Ada"))
        #expect(await service.requests == [.init(method: "GET", path: "/profile", hadToken: true)])
    }

    @Test func aPostAnswersFromTheSameTableAndSendSucceedsForACannedPath() async throws {
        let service = CannedHTTPService(answers: ["/profile": #"{"name":"Ada"}"#, "/logout": "{}"])
        let profile: Profile = try await service.post("/profile", body: Profile(name: "Grace"), token: nil)
        try await service.send("/logout", body: EmptyBody(), token: Secret("t1"))
        #expect(profile == Profile(name: "Ada"))
        #expect(
            await service.requests == [
                .init(method: "POST", path: "/profile", hadToken: false),
                .init(method: "POST", path: "/logout", hadToken: true),
            ])
    }

    @Test func aPathWithNoAnswerFailsWith404AndIsStillRecorded() async {
        let service = CannedHTTPService(answers: [:])
        await #expect(throws: HTTPError.status(code: 404, body: "no canned answer for /missing")) {
            let _: Profile = try await service.get("/missing", token: nil)
        }
        await #expect(throws: HTTPError.status(code: 404, body: "no canned answer for /missing")) {
            try await service.send("/missing", body: EmptyBody(), token: nil)
        }
        #expect(await service.requests.map(\.path) == ["/missing", "/missing"])
    }

    @Test func jsonThatIsNotTheAskedTypeIsAMalformedResponse() async {
        let service = CannedHTTPService(answers: ["/profile": #"{"title":"Dr"}"#])
        await #expect(throws: HTTPError.malformedResponse("the canned answer for /profile is not a Profile")) {
            let _: Profile = try await service.get("/profile", token: nil)
        }
    }

    @Test func itStandsInForAnyHTTPServiceType() async throws {
        let service: any HTTPServiceType = CannedHTTPService(answers: ["/names": #"["Ada","Grace"]"#])
        let names: [String] = try await service.get("/names", token: nil)
        #expect(names == ["Ada", "Grace"])
    }
}
