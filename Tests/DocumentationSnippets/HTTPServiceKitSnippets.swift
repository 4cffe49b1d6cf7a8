import HTTPServiceKit
import Testing

// The samples of HTTPServiceKit's landing page.

@Suite struct HTTPServiceKitSnippetTests {
    struct Profile: Codable, Sendable, Equatable {
        let name: String
    }

    @Test func aCannedServiceAnswersTheLandingPagesRequest() async throws {
        // snippet: http-canned
        let service = CannedHTTPService(answers: ["/profile": #"{"name":"Ada"}"#])
        let profile: Profile = try await service.get("/profile", token: Secret("t1"))
        // end-snippet
        #expect(profile == Profile(name: "Ada"))
    }
}
