/// `POST /auth/signup` body.
struct SignUpPayload: Decodable, Sendable {
    let name: String
    let email: String
    let password: String
}

/// `POST /auth/login` body.
struct LogInPayload: Decodable, Sendable {
    let email: String
    let password: String
}

/// A user as the API shows it.
struct UserPayload: Codable, Sendable, Equatable {
    let id: String
    let name: String
    let email: String

    init(_ record: UserRecord) {
        id = record.id
        name = record.name
        email = record.email
    }
}

/// The body of a successful sign-up or log-in.
struct SessionPayload: Encodable, Sendable {
    let token: String
    let user: UserPayload
}

/// The body of every error response.
struct ErrorPayload: Codable, Sendable {
    let error: String
}
