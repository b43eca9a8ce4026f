// TCA's TicTacToe, ported with the Feature API: each file here is one of its modules (a core
// and its client), composed the way TCA composes them, one lift per child.

struct AuthenticationResponse: Equatable, Sendable {
    var token: String
    var twoFactorRequired: Bool
}

enum AuthenticationError: Error, Equatable, Sendable {
    case invalidUserPassword
    case invalidTwoFactor
}

struct LoginRequest: Equatable, Sendable {
    var email: String
    var password: String
}

struct TwoFactorRequest: Equatable, Sendable {
    var code: String
    var token: String
}

/// The one client Login and TwoFactor call: their services, a part of the app's.
struct AuthenticationClient: Sendable {
    var login: @Sendable (LoginRequest) async -> Result<AuthenticationResponse, AuthenticationError>
    var twoFactor: @Sendable (TwoFactorRequest) async -> Result<AuthenticationResponse, AuthenticationError>
}
