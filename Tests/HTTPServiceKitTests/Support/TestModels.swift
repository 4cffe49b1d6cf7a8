import HTTPServiceKit

// Request and response bodies the tests send and decode: a user, and two bodies that carry a
// password, shaped like an app's.

struct User: Codable, Sendable, Hashable {
    let id: String
    let name: String
    let email: String
}

struct Credentials: Codable, Sendable, Hashable {
    let email: String
    let password: Secret
}

struct SignUpRequest: Codable, Sendable, Hashable {
    let name: String
    let email: String
    let password: Secret
}

struct Session: Codable, Sendable, Hashable {
    let token: Secret
    let user: User
}
